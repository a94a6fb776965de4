// tsdefs prints the definitions the TypeScript compiler's parser sees that
// symedit documents as symbols, for symedit's tests.
//
// Usage: TS_MODULE=/path/to/node_modules/typescript node tsdefs.js FILE...
//
// Prints one JSON object per file: {"path": FILE, "defs": [...]}, each
// definition {"name_path", "kind", "start", "end", "name"} with UTF-16
// offsets (0-based, end exclusive): start is node.getStart() (decorators,
// modifiers and export included, JSDoc not), end node.end, name the start
// of the name. Overload signatures directly before an implementation are
// merged into it, as the language service's navigation tree does: start at
// the first signature, name on the first signature's name.
"use strict";
const ts = require(process.env.TS_MODULE || "typescript");
const fs = require("fs");

function defs(path) {
  const text = fs.readFileSync(path, "utf8");
  const kind = path.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const out = [];
  const count = new Map();

  function emit(prefix, name, k, startNode, endNode, nameNode) {
    const base = prefix ? prefix + "/" + name : name;
    const n = (count.get(base) || 0) + 1;
    count.set(base, n);
    const np = n === 1 ? base : base + "[" + n + "]";
    out.push({ name_path: np, kind: k, start: startNode.getStart(sf), end: endNode.end, name: nameNode.getStart(sf) });
    return np;
  }

  function defaultKeyword(node) {
    return (ts.getModifiers(node) || []).find((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
  }

  const isFn = (e) => e && (ts.isArrowFunction(e) || ts.isFunctionExpression(e));
  const moduleLevel = (node) => ts.isSourceFile(node.parent) || ts.isModuleBlock(node.parent);

  // Overload groups: consecutive same-named function or method
  // declarations whose last has a body. Maps a signature to skip, and the
  // implementation to its first signature.
  function overloads(list) {
    const skip = new Set();
    const first = new Map();
    for (let i = 0; i < list.length; i++) {
      const d = list[i];
      if (!(ts.isFunctionDeclaration(d) || ts.isMethodDeclaration(d) || ts.isConstructorDeclaration(d)) || d.body) continue;
      const name = (x) => (ts.isConstructorDeclaration(x) ? "constructor" : x.name && x.name.getText(sf));
      let j = i;
      while (j + 1 < list.length && list[j + 1].kind === d.kind && name(list[j + 1]) === name(d) && !list[j].body) j++;
      if (list[j].body && j > i) {
        for (let k = i; k < j; k++) skip.add(list[k]);
        first.set(list[j], d);
        i = j;
      }
    }
    return { skip, first };
  }

  function visitList(list, prefix, classPrefix) {
    const { skip, first } = overloads(list);
    for (const d of list) {
      if (skip.has(d)) continue;
      visit(d, prefix, classPrefix, first.get(d));
    }
  }

  // classPrefix is the name path of the class whose body holds node (its
  // members are symbols), or null.
  function visit(node, prefix, classPrefix, firstSig) {
    const start = firstSig || node;
    const nameOf = (n) => (firstSig || n).name;
    if (ts.isFunctionDeclaration(node)) {
      const dflt = !node.name && defaultKeyword(node);
      const np = emit(prefix, node.name ? node.name.text : "default", "function", start, node, node.name ? nameOf(node) : dflt);
      return children(node, np);
    }
    if (ts.isClassDeclaration(node)) {
      const dflt = !node.name && defaultKeyword(node);
      const np = emit(prefix, node.name ? node.name.text : "default", "class", node, node, node.name || dflt);
      return classBody(node, np);
    }
    if (ts.isInterfaceDeclaration(node)) return children(node, emit(prefix, node.name.text, "interface", node, node, node.name), true);
    if (ts.isEnumDeclaration(node)) return emit(prefix, node.name.text, "enum", node, node, node.name);
    if (ts.isTypeAliasDeclaration(node)) return children(node, emit(prefix, node.name.text, "type", node, node, node.name), true);
    if (ts.isModuleDeclaration(node)) {
      const np = emit(prefix, node.name.getText(sf), "namespace", node, node, node.name);
      return node.body ? visit(node.body, np, null) : undefined;
    }
    if (classPrefix !== null && classPrefix !== undefined && node.parent && ts.isClassLike(node.parent)) {
      if (ts.isConstructorDeclaration(node)) {
        const kw = node.getChildren(sf).find((c) => c.kind === ts.SyntaxKind.ConstructorKeyword);
        const np = emit(classPrefix, "constructor", "constructor", start, node, firstSig ? firstSig.getChildren(sf).find((c) => c.kind === ts.SyntaxKind.ConstructorKeyword) : kw);
        return children(node, np);
      }
      if (ts.isMethodDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node)) {
        const np = emit(classPrefix, node.name.getText(sf), "method", start, node, nameOf(node));
        return children(node, np);
      }
    }
    if (ts.isVariableStatement(node) && moduleLevel(node)) {
      const decls = node.declarationList.declarations;
      for (const d of decls) {
        const range = decls.length === 1 ? node : d;
        if (isFn(d.initializer) && ts.isIdentifier(d.name)) {
          children(d.initializer, emit(prefix, d.name.text, "function", range, range, d.name));
        } else if (d.initializer && ts.isClassExpression(d.initializer) && ts.isIdentifier(d.name)) {
          classBody(d.initializer, emit(prefix, d.name.text, "class", range, range, d.name));
        } else {
          children(d, prefix);
        }
      }
      return;
    }
    if (ts.isExportAssignment(node) && !node.isExportEquals && (isFn(node.expression) || ts.isClassExpression(node.expression))) {
      const k = ts.isClassExpression(node.expression) ? "class" : "function";
      const dflt = node.getChildren(sf).find((c) => c.kind === ts.SyntaxKind.DefaultKeyword);
      const np = emit(prefix, "default", k, node, node, dflt);
      return k === "class" ? classBody(node.expression, np) : children(node.expression, np);
    }
    return children(node, prefix);
  }

  function classBody(cls, np) {
    for (const c of cls.getChildren(sf)) {
      if (c.kind === ts.SyntaxKind.SyntaxList && c.getChildren(sf).some((m) => ts.isClassElement(m))) {
        visitList(c.getChildren(sf), prefix0(np), np);
      } else if (c.kind !== ts.SyntaxKind.SyntaxList) {
        visit(c, np, null);
      } else {
        visitList(c.getChildren(sf), np, null);
      }
    }
  }
  const prefix0 = (np) => np;

  function children(node, prefix, typeOnly) {
    if (typeOnly) return;
    const kids = node.getChildren(sf);
    for (const c of kids) {
      if (c.kind === ts.SyntaxKind.SyntaxList) visitList(c.getChildren(sf), prefix, null);
      else visit(c, prefix, null);
    }
  }

  visitList(sf.statements, "", null);
  return out;
}

for (const path of process.argv.slice(2)) {
  let rec;
  try {
    rec = { path, defs: defs(path) };
  } catch (e) {
    rec = { path, error: String(e) };
  }
  process.stdout.write(JSON.stringify(rec) + "\n");
}
