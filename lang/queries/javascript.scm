; symedit symbols query for JavaScript (tree-sitter-javascript), also used
; for JSX.
;
; Captures: @definition.<kind> on the definition node, @name on its name,
; and optionally @scope on the node whose class_body holds the symbol's
; members when that is not the definition node itself (class expressions).
; When several patterns capture the same definition and name, the earliest
; pattern wins. Package symbols widens a definition to an enclosing
; export_statement, drops members of class bodies that are not symbols, and
; keeps variable declarations only at module level. Method decorators are
; inside method_definition in this grammar.

; Classes.
(class_declaration
  name: (identifier) @name) @definition.class

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

; Functions.
(function_declaration
  name: (identifier) @name) @definition.function

(generator_function_declaration
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
