$PROFDIFF diff -n 3 ../shared/corpus/java-cpu-jfr-kafka-0.pb.gz ../shared/corpus/java-cpu-jfr-kafka-1.pb.gz
