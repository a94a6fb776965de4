# rubydefs.rb: the definitions Ruby's own parser sees in each file named on
# the command line, for symbols' TestRubyMatchesRuby. Ranges come from
# RubyVM::AbstractSyntaxTree (first_lineno/first_column to
# last_lineno/last_column: 1-based lines, 0-based byte columns, the end
# exclusive), name positions from Ripper.sexp (each def's, class's and
# module's name token). Both are walked in source order and zipped; a name
# that differs between them is reported as a mismatch.
#
# Output, tab-separated: for each file "F path status" (ok, or the parse
# error), then one "D kind name_path start_line start_col end_line end_col
# name_line name_col" per definition, columns 1-based bytes, with symedit's
# naming rules: a module is a namespace named after its last constant, a
# class likewise; a def is a method when its parent symbol is a class or a
# module, else a function; def recv.x, and a def whose nearest enclosing
# class, module or def is class << recv, are named "recv.x" (the
# receiver's text without white space, "::" written "."); class << recv
# itself is not a definition; same-named siblings are numbered "[2]", ...
# A def that is the one argument of a receiverless call of one of MODIFIERS
# without parentheses (private def x ... end) starts where the call
# (its FCALL node) starts.
# "M path ast_name ripper_name" reports a zip mismatch.
$VERBOSE = nil
require 'ripper'
require 'stringio'

AST = RubyVM::AbstractSyntaxTree
SCOPES = %i[CLASS MODULE DEFN DEFS SCLASS].freeze
MODIFIERS = %i[private protected public module_function private_class_method public_class_method ruby2_keywords].freeze

def ripper_names(sexp, out)
  return unless sexp.is_a?(Array)
  case sexp[0]
  when :def then out << sexp[1]
  when :defs then out << sexp[3]
  when :class, :module then out << sexp[1][-1]
  when :sclass then nil
  end
  sexp.each { |c| ripper_names(c, out) if c.is_a?(Array) }
end

def line_starts(src)
  starts = [0]
  src.each_byte.with_index { |b, i| starts << i + 1 if b == 10 }
  starts
end

def node_text(src, starts, n)
  a = starts[n.first_lineno - 1] + n.first_column
  b = starts[n.last_lineno - 1] + n.last_column
  src.byteslice(a, b - a)
end

def receiver(text)
  text.split.join.gsub('::', '.')
end

def defs_of(path)
  src = File.binread(path)
  starts = line_starts(src)
  root = AST.parse(src.dup.force_encoding('UTF-8'))
  names = []
  ripper_names(Ripper.sexp(src.dup.force_encoding('UTF-8')), names)
  out = []
  count = Hash.new(0)
  # walk visits n with scope, the nearest enclosing CLASS, MODULE, DEFN,
  # DEFS or SCLASS node, and parent, the nearest enclosing definition
  # ([kind, name_path] or nil).
  # starts_at maps a DEFN or DEFS node that a modifier call holds (by its
  # range: Node#children makes new Node objects) to the call's start
  # [line, column].
  key = ->(n) { [n.type, n.first_lineno, n.first_column, n.last_lineno, n.last_column] }
  starts_at = {}
  walk = lambda do |n, scope, parent|
    return unless n.is_a?(AST::Node)
    if n.type == :FCALL && MODIFIERS.include?(n.children[0]) && n.children[1]&.type == :LIST
      items = n.children[1].children.compact
      after = starts[n.first_lineno - 1] + n.first_column + n.children[0].to_s.bytesize
      if items.size == 1 && %i[DEFN DEFS].include?(items[0].type) && src.byteslice(after, 1) != '('
        starts_at[key.(items[0])] = [n.first_lineno, n.first_column]
      end
    end
    if SCOPES.include?(n.type) && n.type != :SCLASS
      case n.type
      when :CLASS, :MODULE
        kind = n.type == :CLASS ? 'class' : 'namespace'
        name = n.children[0].children[-1].to_s
      when :DEFN
        kind = 'function'
        name = n.children[0].to_s
        name = receiver(node_text(src, starts, scope.children[0])) + '.' + name if scope&.type == :SCLASS
      when :DEFS
        kind = 'function'
        name = receiver(node_text(src, starts, n.children[0])) + '.' + n.children[1].to_s
      end
      kind = 'method' if kind == 'function' && parent && %w[class namespace].include?(parent[0])
      base = parent ? "#{parent[1]}/#{name}" : name
      count[base] += 1
      np = count[base] > 1 ? "#{base}[#{count[base]}]" : base
      tok = names.shift
      if tok.nil?
        puts "M\t#{path}\t#{name}\t(none)"
        nl, nc = 0, 0
      else
        nl, nc = tok[2]
        short = name.split('.')[-1]
        puts "M\t#{path}\t#{short}\t#{tok[1]}" unless tok[1] == short || tok[1] + '=' == short
      end
      sl, sc = starts_at[key.(n)] || [n.first_lineno, n.first_column]
      puts ['D', kind, np, sl, sc + 1, n.last_lineno, n.last_column + 1, nl, nc + 1].join("\t")
      parent = [kind, np]
    end
    scope = n if SCOPES.include?(n.type)
    n.children.each { |c| walk.call(c, scope, parent) }
  end
  walk.call(root, nil, nil)
  puts "M\t#{path}\t(extra ripper names)\t#{names.size}" unless names.empty?
  'ok'
end

ARGV.each do |path|
  buf = $stdout
  lines = StringIO.new
  $stdout = lines
  status = begin
    defs_of(path)
  rescue SyntaxError, StandardError => e
    e.message.lines.first.to_s.strip.tr("\t", ' ')
  end
  $stdout = buf
  puts "F\t#{path}\t#{status}"
  print lines.string if status == 'ok'
end
