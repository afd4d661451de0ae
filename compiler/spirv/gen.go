package spirv

//go:generate go run ./internal/gentables -o tables.go
