module github.com/symedit/symedit/bench/tokens

go 1.26.0

replace github.com/symedit/symedit => ../..

require (
	github.com/pkoukk/tiktoken-go v0.1.8
	github.com/pkoukk/tiktoken-go-loader v0.0.2
	github.com/pmezard/go-difflib v1.0.0
	github.com/symedit/symedit v0.0.0-00010101000000-000000000000
)

require (
	github.com/dlclark/regexp2 v1.10.0 // indirect
	github.com/google/uuid v1.3.0 // indirect
	github.com/smacker/go-tree-sitter v0.0.0-20240827094217-dd81d9e9be82 // indirect
)
