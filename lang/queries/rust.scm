; symedit symbols query for Rust (tree-sitter-rust).
;
; Captures: @definition.<kind> on the definition node, @name on its name.
; Outer attributes (#[derive(...)], #[test]) are siblings before the
; item, not inside it; package symbols starts the range at the first of
; them (lang.Rules.Leading), comments between them included, a doc
; comment (///, /** */) above the first not. Visibility (pub, pub(crate))
; and function modifiers (const, async, unsafe, extern "C") are inside the
; item's node, so they belong to the range. A function in an impl or a
; trait is a method (lang.Rules.KindIn). An impl block is named by the
; rules ("impl Point", "impl Display for Point") and its members' name
; paths carry its self type ("Point/fmt"). Constants, statics, fields,
; enum variants, use and extern crate declarations, outline modules
; (mod m;), macro invocations and closures are never captured.

(function_item
  name: (identifier) @name) @definition.function

; A trait method without a default body, a function in an extern block.
(function_signature_item
  name: (identifier) @name) @definition.function

(struct_item
  name: (type_identifier) @name) @definition.struct

(union_item
  name: (type_identifier) @name) @definition.union

(enum_item
  name: (type_identifier) @name) @definition.enum

(trait_item
  name: (type_identifier) @name) @definition.trait

(impl_item
  type: (_) @name) @definition.impl

; An inline module; mod m; declares a module whose items are in another
; file.
(mod_item
  name: (identifier) @name
  body: (declaration_list)) @definition.namespace

; Type aliases, associated types in impls (type Item = u32;) and in traits
; (type Item;).
(type_item
  name: (type_identifier) @name) @definition.type

(associated_type
  name: (type_identifier) @name) @definition.type

(macro_definition
  name: (identifier) @name) @definition.macro
