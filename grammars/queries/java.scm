; symedit symbols query for Java (tree-sitter-java).
;
; Captures: @definition.<kind> on the definition node, @name on its name.
; A declaration's annotations and modifiers are inside its node (the
; modifiers child), so they belong to the range; a Javadoc comment above is
; a sibling and does not. Package symbols drops declarations that are
; members of anonymous class bodies (new T() { ... }) and enum constant
; bodies; lambdas are never captured.

(class_declaration
  name: (identifier) @name) @definition.class

(interface_declaration
  name: (identifier) @name) @definition.interface

(enum_declaration
  name: (identifier) @name) @definition.enum

(record_declaration
  name: (identifier) @name) @definition.record

(annotation_type_declaration
  name: (identifier) @name) @definition.annotation

(method_declaration
  name: (identifier) @name) @definition.method

(constructor_declaration
  name: (identifier) @name) @definition.constructor

(compact_constructor_declaration
  name: (identifier) @name) @definition.constructor
