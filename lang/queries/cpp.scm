; symedit symbols query for C++ (tree-sitter-cpp).
;
; Captures: @definition.<kind> on the definition node, @name on its name.
; The C query's symbols (c.scm: functions found by their declarators,
; structs, unions and enums with a tag and a body, typedefs), and
; classes, namespaces, alias declarations (using V = ...), and the
; functions whose declarator is a member's name, a qualified name
; (Widget::draw, defined outside its class), a destructor's, an
; operator's, a conversion's (operator bool) or a specialization's
; (f<int>). The rules (lang/c.go) make a class's function, and a function
; defined as Class::f, a method, a constructor or a destructor; a
; function defined as ns::f, where ns is a namespace of the same file, a
; function. A qualified name's scopes are a name path's segments before
; the name (Widget/draw, a/b for namespace a::b). A template's range
; starts at template <...>; a friend function defined in a class is a
; function nested in it, a friend declaration no symbol. Anonymous
; namespaces, lambdas, concepts, variables, fields and enumerators are
; not symbols.

(function_declarator
  declarator: (identifier) @name) @definition.function

(function_declarator
  declarator: (field_identifier) @name) @definition.function

(function_declarator
  declarator: (qualified_identifier) @name) @definition.function

(function_declarator
  declarator: (destructor_name) @name) @definition.function

(function_declarator
  declarator: (operator_name) @name) @definition.function

(function_declarator
  declarator: (template_function) @name) @definition.function

; A conversion function (operator bool() const): its declarator is the
; operator_cast itself, alone or as a qualified name's last part.
(operator_cast) @name @definition.function

(class_specifier
  name: (_) @name
  body: (field_declaration_list)) @definition.class

(struct_specifier
  name: (_) @name
  body: (field_declaration_list)) @definition.struct

(union_specifier
  name: (_) @name
  body: (field_declaration_list)) @definition.union

(enum_specifier
  name: (_) @name
  body: (enumerator_list)) @definition.enum

(namespace_definition
  name: (_) @name
  body: (declaration_list)) @definition.namespace

(type_definition
  declarator: (_) @name) @definition.type

(alias_declaration
  name: (type_identifier) @name) @definition.type
