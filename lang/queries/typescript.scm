; symedit symbols query for TypeScript and TSX: tree-sitter-typescript has
; one grammar for each, with the same node types for everything queried here.
;
; Captures: @definition.<kind> on the definition node, @name on its name,
; and optionally @scope on the node whose class_body holds the symbol's
; members when that is not the definition node itself (class expressions).
; When several patterns capture the same definition and name, the earliest
; pattern wins. Package symbols then:
;   - widens a definition to an enclosing export_statement (export, export
;     default, with class decorators written before "export"),
;     ambient_declaration (declare) and, for namespaces, expression_statement;
;   - widens a class member to the decorators that precede it in the body;
;   - drops overload signatures (a function_signature or method_signature
;     followed by a same-named implementation) as symbols of their own: they
;     start the implementation's range; drops members of class bodies that
;     are not symbols;
;   - keeps variable declarations only at module level (program or a
;     namespace body).

; Classes.
(class_declaration
  name: (type_identifier) @name) @definition.class

(abstract_class_declaration
  name: (type_identifier) @name) @definition.class

(export_statement
  "default" @name
  value: (class) @scope) @definition.class

(lexical_declaration
  (variable_declarator
    name: (identifier) @name
    value: (class) @scope)) @definition.class

(variable_declaration
  (variable_declarator
    name: (identifier) @name
    value: (class) @scope)) @definition.class

; Other types.
(interface_declaration
  name: (type_identifier) @name) @definition.interface

(enum_declaration
  name: (identifier) @name) @definition.enum

(type_alias_declaration
  name: (type_identifier) @name) @definition.type

; Namespaces: namespace X {}, module X {}, module "x" {}, declare global {}.
(internal_module
  name: (_) @name) @definition.namespace

(module
  name: (_) @name) @definition.namespace

; declare global { ... }: a global augmentation, the compiler's module "global".
(ambient_declaration
  "global" @name) @definition.namespace

; Functions.
(function_declaration
  name: (identifier) @name) @definition.function

(generator_function_declaration
  name: (identifier) @name) @definition.function

(function_signature
  name: (identifier) @name) @definition.function

(export_statement
  "default" @name
  value: [(function_expression) (arrow_function) (generator_function)]) @definition.function

(lexical_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)])) @definition.function

(variable_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)])) @definition.function

; Class members. A member's parent must be a class_body (an object
; literal's method_definition is no symbol): package symbols checks that,
; rather than a (class_body ...) pattern here, because a pattern on the
; body keeps a query state alive for the whole body, and classes nested N
; deep then cost N states at every node below them.
(method_definition
  name: (property_identifier) @name
  (#eq? @name "constructor")) @definition.constructor

(method_definition
  name: (_) @name
  (#not-eq? @name "constructor")) @definition.method

(method_signature
  name: (_) @name) @definition.method

(abstract_method_signature
  name: (_) @name) @definition.method
