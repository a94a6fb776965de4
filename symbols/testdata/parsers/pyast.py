"""Print the definitions Python's own parser (ast) sees, for symedit's tests.

Usage: python3 pyast.py FILE...

Prints one JSON object per file: {"path": FILE, "defs": [...]} or
{"path": FILE, "error": "..."} when ast cannot parse it. Each definition is
{"name_path", "kind", "line", "col", "end_line", "end_col", "name_line",
"name_col"}: 1-based lines, 1-based UTF-8 byte columns; line/col is where
the definition proper begins (def, async def or class: ast's lineno and
col_offset), end_line/end_col its exclusive end (ast's end_lineno,
end_col_offset), name_line/name_col its name. The name path joins the names
of the enclosing definitions with "/"; a kind is "class", "method" (a def
whose innermost enclosing definition is a class) or "function"; the second
and later definitions with the same name path get "[2]", "[3]", ...
"""

import ast
import json
import re
import sys

NAME = re.compile(rb"(?:async\s+)?(?:def|class)\s+")


def defs(path):
    with open(path, "rb") as f:
        src = f.read()
    tree = ast.parse(src, path)
    lines = src.split(b"\n")
    count = {}
    out = []

    def visit(node, prefix, parent_kind):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if isinstance(child, ast.ClassDef):
                    kind = "class"
                elif parent_kind == "class":
                    kind = "method"
                else:
                    kind = "function"
                base = prefix + child.name
                count[base] = count.get(base, 0) + 1
                np = base if count[base] == 1 else "%s[%d]" % (base, count[base])
                line = lines[child.lineno - 1]
                m = NAME.match(line, child.col_offset)
                name_col = m.end() if m else -1
                out.append({
                    "name_path": np, "kind": kind,
                    "line": child.lineno, "col": child.col_offset + 1,
                    "end_line": child.end_lineno, "end_col": child.end_col_offset + 1,
                    "name_line": child.lineno, "name_col": name_col + 1,
                })
                visit(child, np + "/", "class" if kind == "class" else "function")
            else:
                visit(child, prefix, parent_kind)

    visit(tree, "", "")
    return out


def main():
    for path in sys.argv[1:]:
        try:
            rec = {"path": path, "defs": defs(path)}
        except (SyntaxError, ValueError, UnicodeDecodeError) as e:
            rec = {"path": path, "error": str(e)}
        print(json.dumps(rec))


if __name__ == "__main__":
    main()
