; symedit symbols query for Go (tree-sitter-go).
;
; Captures: @definition.<kind> on the definition node, @name on its name.
; When several patterns capture the same definition node, the earliest
; pattern wins (struct and interface before the catch-all type pattern).
; Package symbols names a method Receiver/Method from its receiver type and
; widens a lone type spec to its whole type_declaration. Types declared in
; function bodies are symbols too, nested under the enclosing function or
; method, as go/ast sees them.

(function_declaration
  name: (identifier) @name) @definition.function

(method_declaration
  name: (field_identifier) @name) @definition.method

(type_declaration
  (type_spec
    name: (type_identifier) @name
    type: (struct_type)) @definition.struct)

(type_declaration
  (type_spec
    name: (type_identifier) @name
    type: (interface_type)) @definition.interface)

(type_declaration
  (type_spec
    name: (type_identifier) @name) @definition.type)

(type_declaration
  (type_alias
    name: (type_identifier) @name) @definition.type)
