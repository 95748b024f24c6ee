module quotesvc

go 1.19
