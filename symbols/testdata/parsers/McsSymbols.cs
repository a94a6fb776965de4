// McsSymbols prints the declarations that Mono's C# parser (mcs's own,
// from Mono.CSharp.dll) finds in each file named on the command line,
// for symbols/mcs_test.go to compare with symedit's C# symbols. Per
// file: "F <path> <errors>" and an "E <message>" line per error, then
// one "D <id> <parent id> <kind> <line> <col> <name>" per declaration
// (namespaces, types, members; the position is mcs's Location of the
// declaration, 1-based, a tab one column) followed by its "L <what>
// <line> <col>" locations: "attr" for each attribute's name, "type" for
// a member's type, "open" and "close" for its body's start ("{" or
// "=>") and end, "acc" and "accclose" for a property's accessors ("mod"
// and "tok", the modifiers and tokens of mcs's locations bag, only where
// Mono.CSharp.dll is built with it; Debian's is not); then the file's
// tokens, "T <line> <col> <token>" (see Tokens).
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using Mono.CSharp;

class McsSymbols
{
	static int next;
	static LocationsBag bag;
	static TextWriter w;

	static void Main(string[] args)
	{
		w = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));
		// Locations are packed per source file: mcs must know every
		// file before it makes one.
		var sources = new List<SourceFile>();
		for (int i = 0; i < args.Length; i++)
			sources.Add(new SourceFile(args[i], args[i], i + 1));
		Location.Initialize(sources);
		for (int i = 0; i < args.Length; i++)
			ParseFile(sources[i]);
		w.Flush();
	}

	static void ParseFile(SourceFile source)
	{
		string path = source.Name;
		var settings = new CompilerSettings();
		settings.TabSize = 1;
		settings.Unsafe = true;
		settings.Version = LanguageVersion.Experimental;
		var errors = new StringWriter();
		var printer = new StreamReportPrinter(errors);
		var ctx = new CompilerContext(settings, printer);
		var module = new ModuleContainer(ctx);
		var file = new CompilationSourceFile(module, source);
		module.AddTypeContainer(file);
		bag = new LocationsBag();
		var session = new ParserSession { UseJayGlobalArrays = true, LocatedTokens = new LocatedToken[15000], LocationsBag = bag };
		using (var input = File.OpenRead(path)) {
			var reader = new SeekableStreamReader(input, new UTF8Encoding(false), session.StreamReaderBuffer);
			var parser = new CSharpParser(reader, file, ctx.Report, session);
			parser.parse();
		}
		w.WriteLine("F {0} {1}", path, printer.ErrorsCount);
		foreach (var line in errors.ToString().Split('\n'))
			if (line.Trim() != "")
				w.WriteLine("E " + line.Trim());
		Walk(file, 0, new HashSet<object>());
		Tokens(source, settings);
	}

	// Tokens prints the file's tokens as mcs's tokenizer reads them
	// (comments, white space and the lines conditional compilation
	// leaves out skipped): "T <line> <col> <token>", the token one of
	// { } [ ] ( ) ; = => : or its identifier's text, else "x" (a
	// keyword, at its first character; another token at mcs's
	// position, which none of the comparisons uses).
	static void Tokens(SourceFile source, CompilerSettings settings)
	{
		var errors = new StringWriter();
		var ctx = new CompilerContext(settings, new StreamReportPrinter(errors));
		var module = new ModuleContainer(ctx);
		var file = new CompilationSourceFile(module, source);
		var session = new ParserSession { UseJayGlobalArrays = true, LocatedTokens = new LocatedToken[15000] };
		var lines = File.ReadAllLines(source.Name);
		using (var input = File.OpenRead(source.Name)) {
			var reader = new SeekableStreamReader(input, new UTF8Encoding(false), session.StreamReaderBuffer);
			var lexer = new Tokenizer(reader, file, session, ctx.Report);
			// Token's constants are internal to Mono.CSharp.dll.
			var token = typeof(Tokenizer).Assembly.GetType("Mono.CSharp.Token");
			Func<string, int> code = name => (int)token.GetField(name).GetValue(null);
			int eof = code("EOF"), ident = code("IDENTIFIER");
			var punct = new Dictionary<int, string>();
			foreach (var kv in new[] {
				"OPEN_BRACE {", "CLOSE_BRACE }", "OPEN_BRACKET [", "OPEN_BRACKET_EXPR [", "CLOSE_BRACKET ]",
				"OPEN_PARENS (", "OPEN_PARENS_CAST (", "OPEN_PARENS_LAMBDA (", "OPEN_PARENS_DECONSTRUCT (",
				"CLOSE_PARENS )", "SEMICOLON ;", "ASSIGN =", "ARROW =>", "COLON :" }) {
				var f = kv.Split(' ');
				punct[code(f[0])] = f[1];
			}
			for (int i = 0; i < 10000000; i++) {
				int tok = lexer.token();
				if (tok == eof)
					break;
				// A punctuator's position is the tokenizer's; an
				// identifier's is its LocatedToken's (the tokenizer's
				// Value holds the last one, stale for other tokens).
				string text;
				var at = lexer.Location;
				if (!punct.TryGetValue(tok, out text)) {
					text = "x";
					var lt = lexer.Value as LocatedToken;
					if (tok == ident && lt != null) {
						text = lt.Value;
						at = lt.Location;
					} else {
						// A keyword's position is its last character:
						// back over its letters to its first.
						int col = at.Column;
						string line = at.Row >= 1 && at.Row <= lines.Length ? lines[at.Row - 1] : "";
						while (col > 1 && col - 2 < line.Length && (char.IsLetterOrDigit(line[col - 2]) || line[col - 2] == '_'))
							col--;
						at = new Location(source, at.Row, col);
					}
				}
				w.WriteLine("T {0} {1} {2}", at.Row, at.Column, text);
			}
		}
	}

	static void Walk(TypeContainer tc, int parent, HashSet<object> seen)
	{
		var kids = new List<MemberCore>();
		if (tc.Containers != null)
			foreach (var c in tc.Containers)
				kids.Add(c);
		var td = tc as TypeDefinition;
		if (td != null && td.Members != null)
			foreach (var m in td.Members)
				kids.Add(m);
		foreach (var m in kids) {
			if (!seen.Add(m))
				continue;
			int id = Emit(m, parent);
			var sub = m as TypeContainer;
			if (sub != null)
				Walk(sub, id == 0 ? parent : id, seen);
		}
	}

	static string Kind(MemberCore m)
	{
		if (m is NamespaceContainer) return "namespace";
		if (m is Class) return "class";
		if (m is Struct) return "struct";
		if (m is Interface) return "interface";
		if (m is Mono.CSharp.Enum) return "enum";
		if (m is Mono.CSharp.Delegate) return "delegate";
		if (m is Constructor) return "constructor";
		if (m is Destructor) return "destructor";
		if (m is Operator) return "operator";
		if (m is Method) return "method";
		if (m is Indexer) return "indexer";
		if (m is Property) return "property";
		if (m is EventProperty) return "event";
		if (m is EventField) return "eventfield";
		return null; // fields, constants, enum members: not symbols
	}

	static int Emit(MemberCore m, int parent)
	{
		string kind = Kind(m);
		if (kind == null)
			return 0;
		int id = ++next;
		string name = m.MemberName == null ? "?" : m.MemberName.Name;
		var at = m.Location;
		var ns = m as NamespaceContainer;
		if (ns != null) {
			// namespace A.B: mcs locates B; the name begins at A.
			name = ns.MemberName.GetSignatureForError();
			for (var left = ns.MemberName; left != null; left = left.Left)
				at = left.Location;
		}
		var op = m as Operator;
		if (op != null) {
			// As C# writes it: "operator +", "implicit operator T".
			name = Operator.GetName(op.OperatorType);
			if (name == "implicit" || name == "explicit")
				name += " operator " + op.TypeExpression.GetSignatureForError();
			else
				name = "operator " + name;
		}
		if (m.MemberName != null && m.MemberName.ExplicitInterface != null)
			name = m.MemberName.ExplicitInterface.GetSignatureForError() + "." + name;
		Loc("D " + id + " " + parent + " " + kind, at, " " + name);
		if (m.OptAttributes != null)
			foreach (var a in m.OptAttributes.Attrs)
				Loc("L attr", a.Location, "");
		var ml = bag.GetMemberLocation(m);
		if (ml != null) {
			if (ml.Modifiers != null)
				foreach (var t in ml.Modifiers)
					Loc("L mod", t.Item2, "");
			for (int i = 0; i < ml.Count; i++)
				Loc("L tok", ml[i], "");
		}
		var mb = m as MemberBase;
		if (mb != null && mb.TypeExpression != null)
			Loc("L type", mb.TypeExpression.Location, "");
		Block block = null;
		var mc = m as MethodCore;
		if (mc != null)
			block = mc.Block;
		if (block != null) {
			Loc("L open", block.StartLocation, "");
			Loc("L close", block.EndLocation, "");
		}
		var pb = m as PropertyBase;
		if (pb != null) {
			foreach (var acc in new[] { pb.AccessorFirst, pb.AccessorSecond }) {
				if (acc == null) continue;
				Loc("L acc", acc.Location, "");
				if (acc.Block != null)
					Loc("L accclose", acc.Block.EndLocation, "");
			}
		}
		return id;
	}

	static void Loc(string head, Location l, string tail)
	{
		if (l.IsNull)
			return;
		w.WriteLine("{0} {1} {2}{3}", head, l.Row, l.Column, tail);
	}
}
