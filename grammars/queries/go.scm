; symedit symbols query for Go (tree-sitter-go).
;
; Captures: @definition.<kind> on the definition node, @name on its name.
; When several patterns capture the same definition node, the earliest
; pattern wins (struct and interface before the catch-all type pattern).
; Package symbols names a method Receiver/Method from its receiver type and
; widens a lone type spec to its whole type_declaration. Only package-level
; types are symbols (types declared inside function bodies are not).

(function_declaration
  name: (identifier) @name) @definition.function

(method_declaration
  name: (field_identifier) @name) @definition.method

(source_file
  (type_declaration
    (type_spec
      name: (type_identifier) @name
      type: (struct_type)) @definition.struct))

(source_file
  (type_declaration
    (type_spec
      name: (type_identifier) @name
      type: (interface_type)) @definition.interface))

(source_file
  (type_declaration
    (type_spec
      name: (type_identifier) @name) @definition.type))

(source_file
  (type_declaration
    (type_alias
      name: (type_identifier) @name) @definition.type))
