; symedit symbols query for Python (tree-sitter-python).
;
; Captures: @definition.<kind> on the definition node, @name on its name.
; Package symbols widens a definition to its decorated_definition (so the
; range starts at the first decorator), turns a function whose parent
; symbol is a class into a method, and trims trailing comments that the
; grammar's block swallows.

(class_definition
  name: (identifier) @name) @definition.class

(function_definition
  name: (identifier) @name) @definition.function
