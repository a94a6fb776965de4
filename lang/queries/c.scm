; symedit symbols query for C (tree-sitter-c).
;
; Captures: @definition.<kind> on the definition node, @name on its name.
; A function is found by its declarator, f(...) with a name, wherever the
; declaration puts it (char *f(void), int (*getf(void))(int)); the rules
; (lang/c.go) climb to the declaration that declares it and keep it when
; that declaration is a definition or a prototype at file scope (in an
; extern "C" block or a preprocessor conditional too), not in a block nor
; a parameter. Its range is the whole declaration: storage classes,
; attributes and the ";" of a prototype included. A struct, union or enum
; is a symbol when it has a tag and a body, wherever it is defined; its
; range ends at "}", or at the ";" right after it when nothing is
; declared with it. A typedef's every name is a type ranging over the
; whole typedef, which holds no members: typedef struct S { ... } S_t;
; is the struct S and the type S_t side by side. Variables, fields,
; enumerators, macros, forward declarations (struct S;) and anonymous
; structs are not symbols.

(function_declarator
  declarator: (identifier) @name) @definition.function

(struct_specifier
  name: (type_identifier) @name
  body: (field_declaration_list)) @definition.struct

(union_specifier
  name: (type_identifier) @name
  body: (field_declaration_list)) @definition.union

(enum_specifier
  name: (type_identifier) @name
  body: (enumerator_list)) @definition.enum

(type_definition
  declarator: (_) @name) @definition.type
