module pricing

go 1.19
