/*
 * Run the fuzz target over files, without libFuzzer: `replay FILE...`.
 * make check runs it on every seed and every crasher found so far, under
 * the sanitizers, so a fixed crash stays fixed.
 */
#include <err.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
main(int argc, char *argv[])
{
	FILE	*fp;
	uint8_t	*buf;
	long	 len;
	int	 i;

	for (i = 1; i < argc; i++) {
		if ((fp = fopen(argv[i], "rb")) == NULL)
			err(2, "%s", argv[i]);
		if (fseek(fp, 0, SEEK_END) == -1 || (len = ftell(fp)) < 0 ||
		    fseek(fp, 0, SEEK_SET) == -1)
			err(2, "%s", argv[i]);
		if ((buf = malloc((size_t)len + 1)) == NULL)
			err(2, NULL);
		if (fread(buf, 1, (size_t)len, fp) != (size_t)len)
			err(2, "%s", argv[i]);
		fclose(fp);
		LLVMFuzzerTestOneInput(buf, (size_t)len);
		free(buf);
	}
	printf("replayed %d inputs\n", argc - 1);
	return 0;
}
