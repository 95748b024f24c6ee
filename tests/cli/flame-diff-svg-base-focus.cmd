$PROFDIFF diff -f svg --flame-width base --focus main.priceBasket examples/good.pb.gz examples/bad.pb.gz
