; symedit symbols query for C# (tree-sitter-c-sharp).
;
; Captures: @definition.<kind> on the definition node, @name on its name.
; A declaration's attributes ([Obsolete], [Test]) and modifiers are inside
; its node, so they belong to the range; an XML doc comment (///) above is
; a sibling and does not, as a Javadoc above a Java annotation. A
; file-scoped namespace (namespace N;) runs to the end of the file's last
; declaration (lang.Rules.Adjust), so the types after it nest in it, as
; block namespaces' types do. Package symbols names operators, conversion
; operators, finalizers, indexers and explicit interface implementations
; (lang.Rules.Adjust). Fields, constants, field-like events (event
; EventHandler E;), enum members, property and event accessors, lambdas,
; anonymous methods, using directives and global attributes are never
; captured.

(namespace_declaration
  name: (_) @name) @definition.namespace

(file_scoped_namespace_declaration
  name: (_) @name) @definition.namespace

(class_declaration
  name: (identifier) @name) @definition.class

(struct_declaration
  name: (identifier) @name) @definition.struct

(interface_declaration
  name: (identifier) @name) @definition.interface

(enum_declaration
  name: (identifier) @name) @definition.enum

; record, record class and record struct.
(record_declaration
  name: (identifier) @name) @definition.record

(delegate_declaration
  name: (identifier) @name) @definition.delegate

(method_declaration
  name: (identifier) @name) @definition.method

(constructor_declaration
  name: (identifier) @name) @definition.constructor

; A finalizer (~C()), named "~C"; its name position is C's.
(destructor_declaration
  name: (identifier) @name) @definition.method

(property_declaration
  name: (identifier) @name) @definition.property

; An indexer, named "this".
(indexer_declaration
  "this" @name) @definition.indexer

; An event with add and remove accessors.
(event_declaration
  name: (identifier) @name) @definition.event

; operator +, named "operator +".
(operator_declaration
  "operator" @name) @definition.operator

; implicit operator T and explicit operator T, named so. An operator's
; name position is its operator keyword, as mcs locates it.
(conversion_operator_declaration
  "operator" @name) @definition.operator

(local_function_statement
  name: (identifier) @name) @definition.function
