module types

go 1.19
