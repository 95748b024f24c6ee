module spansprog

go 1.19
