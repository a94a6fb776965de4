// JavacSymbols prints the definitions javac's own parser sees, for
// symedit's tests, which compare its symbols with them.
//
// Usage: java --add-exports jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED \
//            JavacSymbols.java [--analyze] FILE...
//
// Prints one JSON object per file: {"path": FILE, "defs": [...]} or
// {"path": FILE, "error": "..."} when javac reports a syntax error. Each
// definition is {"name_path", "kind", "start", "end", "name"}: UTF-16 char
// offsets (0-based, end exclusive) of the definition (annotations and
// modifiers included) and of its name, as javac's trees give them. Kinds
// are symedit's: class, interface, enum, record, annotation, method,
// constructor; an anonymous class body (new T() {...}) is a class named
// T's simple name + "$" + its number in javac's binary name (Outer$3), an
// enum constant with a body a class named after the constant, an
// annotation type element a method. With --analyze the files are
// attributed too (they must compile on their own) and the number comes
// from javac's binary name; without, it is counted as symedit documents it
// (source order within the innermost enclosing class, constructor
// arguments first).
import com.sun.source.tree.*;
import com.sun.source.util.*;
import com.sun.tools.javac.tree.JCTree;
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import javax.lang.model.element.*;
import javax.lang.model.util.Elements;
import javax.tools.*;

public class JavacSymbols {
    public static void main(String[] args) throws Exception {
        boolean analyze = false;
        List<String> files = new ArrayList<>();
        for (String a : args) {
            if (a.equals("--analyze")) analyze = true;
            else files.add(a);
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        for (String f : files) {
            out.println(one(javac, f, analyze));
        }
    }

    static String one(JavaCompiler javac, String path, boolean analyze) throws IOException {
        DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
        StandardJavaFileManager fm = javac.getStandardFileManager(diags, null, StandardCharsets.UTF_8);
        List<String> opts = new ArrayList<>(List.of("-proc:none", "-d", System.getProperty("java.io.tmpdir")));
        JavacTask task = (JavacTask) javac.getTask(null, fm, diags, opts, null, fm.getJavaFileObjects(path));
        Iterable<? extends CompilationUnitTree> units = task.parse();
        if (analyze) task.analyze();
        for (Diagnostic<?> d : diags.getDiagnostics()) {
            if (d.getKind() == Diagnostic.Kind.ERROR && (!analyze || d.getCode().startsWith("compiler.err.") && d.getCode().contains("expected"))) {
                return "{\"path\":" + q(path) + ",\"error\":" + q(d.getMessage(null)) + "}";
            }
        }
        StringBuilder b = new StringBuilder();
        b.append("{\"path\":").append(q(path)).append(",\"defs\":[");
        Trees trees = Trees.instance(task);
        Elements elements = task.getElements();
        for (CompilationUnitTree u : units) {
            String src = u.getSourceFile().getCharContent(true).toString();
            new Walker(u, trees, elements, src, b, analyze).scan(u, null);
        }
        if (b.charAt(b.length() - 1) == ',') b.setLength(b.length() - 1);
        return b.append("]}").toString();
    }

    static String q(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }

    /**
     * Numberer gives each anonymous class body the number javac's binary name
     * gives it, as symedit documents the rule: its position among the
     * anonymous bodies whose innermost enclosing class is the same, in
     * source order, a class's constructor arguments before the class.
     */
    static final class Numberer extends TreeScanner<Void, Void> {
        final Map<ClassTree, Integer> ordinals = new IdentityHashMap<>();
        final Deque<int[]> counters = new ArrayDeque<>();

        @Override
        public Void visitClass(ClassTree t, Void v) {
            counters.push(new int[1]);
            try {
                return super.visitClass(t, v);
            } finally {
                counters.pop();
            }
        }

        @Override
        public Void visitNewClass(NewClassTree t, Void v) {
            scan(t.getEnclosingExpression(), v);
            scan(t.getIdentifier(), v);
            scan(t.getTypeArguments(), v);
            scan(t.getArguments(), v);
            if (t.getClassBody() != null) {
                ordinals.put(t.getClassBody(), counters.isEmpty() ? 0 : ++counters.peek()[0]);
                scan(t.getClassBody(), v);
            }
            return null;
        }
    }

    /** One enclosing symbol: its name path. */
    static final class Scope {
        final String path;
        Scope(String path) { this.path = path; }
    }

    static final class Walker extends TreePathScanner<Void, Void> {
        final CompilationUnitTree unit;
        final Trees trees;
        final Elements elements;
        final SourcePositions pos;
        final String src;
        final StringBuilder b;
        final boolean analyze;
        final Deque<Scope> scopes = new ArrayDeque<>();
        final Map<String, Integer> count = new HashMap<>();
        final Map<ClassTree, Integer> ordinals;

        Walker(CompilationUnitTree unit, Trees trees, Elements elements, String src, StringBuilder b, boolean analyze) {
            this.unit = unit; this.trees = trees; this.elements = elements; this.src = src; this.b = b; this.analyze = analyze;
            this.pos = trees.getSourcePositions();
            Numberer nb = new Numberer();
            nb.scan(unit, null);
            this.ordinals = nb.ordinals;
        }

        String emit(String name, String kind, Tree range, int namePos) {
            String base = scopes.isEmpty() ? name : scopes.peek().path + "/" + name;
            int n = count.merge(base, 1, Integer::sum);
            String np = n == 1 ? base : base + "[" + n + "]";
            b.append("{\"name_path\":").append(q(np)).append(",\"kind\":").append(q(kind))
                .append(",\"start\":").append(pos.getStartPosition(unit, range))
                .append(",\"end\":").append(pos.getEndPosition(unit, range))
                .append(",\"name\":").append(namePos).append("},");
            return np;
        }

        @Override
        public Void visitNewClass(NewClassTree nc, Void v) {
            ClassTree body = nc.getClassBody();
            if (body == null) {
                return super.visitNewClass(nc, v);
            }
            // An anonymous class ranges over the whole new expression, so
            // the anonymous classes in its arguments nest under it, as in
            // symedit.
            Tree parent = getCurrentPath().getParentPath().getLeaf();
            String name;
            int namePos;
            Tree range = nc;
            if (parent instanceof VariableTree && isEnumConstant((VariableTree) parent)) {
                VariableTree vt = (VariableTree) parent;
                name = vt.getName().toString();
                namePos = ((JCTree) vt).pos;
                range = vt;
            } else {
                Tree id = nc.getIdentifier();
                while (true) {
                    if (id instanceof ParameterizedTypeTree) id = ((ParameterizedTypeTree) id).getType();
                    else if (id instanceof AnnotatedTypeTree) id = ((AnnotatedTypeTree) id).getUnderlyingType();
                    else break;
                }
                String simple = id instanceof MemberSelectTree ? ((MemberSelectTree) id).getIdentifier().toString() : id.toString();
                namePos = (int) pos.getEndPosition(unit, id) - simple.length();
                int ordinal = ordinals.getOrDefault(body, 0);
                if (analyze) {
                    TypeElement te = (TypeElement) trees.getElement(new TreePath(getCurrentPath(), body));
                    String bin = elements.getBinaryName(te).toString();
                    ordinal = Integer.parseInt(bin.substring(bin.lastIndexOf('$') + 1));
                }
                name = simple + "$" + ordinal;
            }
            String np = emit(name, "class", range, namePos);
            scopes.push(new Scope(np));
            try {
                scan(nc.getEnclosingExpression(), v);
                scan(nc.getIdentifier(), v);
                scan(nc.getTypeArguments(), v);
                scan(nc.getArguments(), v);
                scan(body.getMembers(), v);
            } finally {
                scopes.pop();
            }
            return null;
        }

        @Override
        public Void visitClass(ClassTree t, Void v) {
            String name = t.getSimpleName().toString();
            String kind;
            switch (t.getKind()) {
                case INTERFACE: kind = "interface"; break;
                case ENUM: kind = "enum"; break;
                case ANNOTATION_TYPE: kind = "annotation"; break;
                default: kind = t.getKind().name().equals("RECORD") ? "record" : "class";
            }
            long from = pos.getEndPosition(unit, t.getModifiers());
            if (from < 0) from = pos.getStartPosition(unit, t);
            String np = emit(name, kind, t, wordAt(name, (int) from));
            scopes.push(new Scope(np));
            try {
                return super.visitClass(t, v);
            } finally {
                scopes.pop();
            }
        }

        boolean isEnumConstant(VariableTree vt) {
            return (((JCTree.JCVariableDecl) vt).mods.flags & (1L << 14)) != 0; // Flags.ENUM
        }

        @Override
        public Void visitMethod(MethodTree t, Void v) {
            if (pos.getEndPosition(unit, t) < 0) {
                return null; // a default constructor javac adds
            }
            boolean ctor = t.getName().contentEquals("<init>");
            String name = ctor ? enclosingSimpleName() : t.getName().toString();
            String np = emit(name, ctor ? "constructor" : "method", t, ((JCTree) t).pos);
            scopes.push(new Scope(np));
            try {
                return super.visitMethod(t, v);
            } finally {
                scopes.pop();
            }
        }

        String enclosingSimpleName() {
            for (TreePath p = getCurrentPath().getParentPath(); p != null; p = p.getParentPath()) {
                if (p.getLeaf() instanceof ClassTree) return ((ClassTree) p.getLeaf()).getSimpleName().toString();
            }
            return "";
        }

        int wordAt(String word, int from) {
            for (int i = src.indexOf(word, from); i >= 0; i = src.indexOf(word, i + 1)) {
                boolean before = i == 0 || !Character.isJavaIdentifierPart(src.charAt(i - 1));
                int e = i + word.length();
                boolean after = e >= src.length() || !Character.isJavaIdentifierPart(src.charAt(e));
                if (before && after) return i;
            }
            return -1;
        }
    }
}
