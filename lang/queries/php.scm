; symedit symbols query for PHP (tree-sitter-php).
;
; Captures: @definition.<kind> on the definition node, @name on its name.
; A namespace is named by its full name (App\Models). namespace X { }
; ranges over its braces; namespace X; over the statements after it, up to
; the next namespace or the end of the file (lang.Rules.Adjust), as PHP's
; grammar puts them in it, so the classes after it nest: App\Models/User.
; Attributes (#[...]) are inside the declaration's node, so they belong to
; the range; a doc comment (/** */) above is a sibling, outside it, as a
; Javadoc above a Java method. Modifiers (public, static, abstract, final,
; readonly) are inside too. A method of an anonymous class (new class
; { ... }) nests under the symbol around the expression. Class constants,
; properties, enum cases, trait uses, closures, arrow functions,
; anonymous classes themselves and the global namespace (namespace { })
; are never captured.

(namespace_definition
  name: (namespace_name) @name) @definition.namespace

(class_declaration
  name: (name) @name) @definition.class

(interface_declaration
  name: (name) @name) @definition.interface

(trait_declaration
  name: (name) @name) @definition.trait

(enum_declaration
  name: (name) @name) @definition.enum

(function_definition
  name: (name) @name) @definition.function

(method_declaration
  name: (name) @name) @definition.method
