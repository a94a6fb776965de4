; symedit symbols query for Ruby (tree-sitter-ruby).
;
; Captures: @definition.<kind> on the definition node, @name on its name.
; A module is a namespace, a class a class; a class or module named by a
; path (class A::B) is named after its last constant (B), since "::"
; ends the file part of a FILE::NAME_PATH location. def is a function, a
; method when its parent symbol is a class or a module (lang.Rules.KindIn);
; def self.x and def obj.x are named "self.x" and "obj.x", and so is a def
; whose nearest enclosing class, module or def is class << self (or
; class << obj): the singleton class itself is not a symbol. A range runs
; from the keyword (def, class, module) to its end (an endless def, to
; its expression's end); a comment above is not part of it, nor is a
; method call around a def (private def x). attr_accessor and its kin,
; define_method, Struct.new and Class.new blocks, alias, constants and
; blocks are never captured: they are method calls or expressions, not
; definitions.

(module
  name: [
    (constant) @name
    (scope_resolution name: (_) @name)
  ]) @definition.namespace

(class
  name: [
    (constant) @name
    (scope_resolution name: (_) @name)
  ]) @definition.class

(method
  name: (_) @name) @definition.function

(singleton_method
  name: (_) @name) @definition.function
