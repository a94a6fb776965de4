; symedit symbols query for Java (tree-sitter-java).
;
; Captures: @definition.<kind> on the definition node, @name on its name.
; A declaration's annotations and modifiers are inside its node (the
; modifiers child), so they belong to the range; a Javadoc comment above is
; a sibling and does not. Package symbols names anonymous classes and
; nests them under the symbol that contains them; lambdas are never
; captured.

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

; Anonymous class bodies: new T(...) { ... } is a class named by
; package symbols after T's simple name and javac's ordinal ("Runnable$1");
; an enum constant with a body is a class named after the constant.
(object_creation_expression
  type: (_) @name
  (class_body)) @definition.class

(enum_constant
  name: (identifier) @name
  body: (class_body)) @definition.class

; Annotation type elements: String since() default "";
(annotation_type_element_declaration
  name: (identifier) @name) @definition.method
