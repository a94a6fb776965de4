module github.com/symedit/symedit

go 1.26.0

require (
	github.com/pmezard/go-difflib v1.0.0
	github.com/smacker/go-tree-sitter v0.0.0-20240827094217-dd81d9e9be82
)

require (
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)
