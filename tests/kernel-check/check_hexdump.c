// SPDX-License-Identifier: MIT
/*
 * lib/hexdump.c: the program's hexdump replaces the library's member
 * whole.  hex_dump_to_buffer()'s groupings (little-endian words), its
 * ASCII column at a fixed place, the fall-back to bytes, the length it
 * would need; print_hex_dump() through printk() to the console (fd 2,
 * captured); hex2bin()/bin2hex()/hex_to_bin().
 */

#include <linux/printk.h>

#include "check.h"

static u8 data[32];
static char line[200];

static int grouping(void *arg)
{
	static const struct {
		size_t len;
		int groupsize;
		bool ascii;
		const char *want;
	} cases[] = {
		{16, 1, true,
		 "40 41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f  "
		 "@ABCDEFGHIJKLMNO"},
		{16, 2, false, "4140 4342 4544 4746 4948 4b4a 4d4c 4f4e"},
		{16, 4, false, "43424140 47464544 4b4a4948 4f4e4d4c"},
		{16, 8, false, "4746454443424140 4f4e4d4c4b4a4948"},
		/* 6 is no multiple of 4: bytes */
		{6, 4, false, "40 41 42 43 44 45"},
		/* a short row keeps the text where a full row's is */
		{5, 1, true,
		 "40 41 42 43 44                                   @ABCD"},
	};
	char small[10];
	u8 odd[3] = {0x07, 0x80, 0x5a};
	int n;

	(void)arg;
	for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
		n = hex_dump_to_buffer(data, cases[k].len, 16,
				       cases[k].groupsize, line, sizeof(line),
				       cases[k].ascii);
		if (strcmp(line, cases[k].want) || n != (int)strlen(line)) {
			printk("case %zu: \"%s\" (%d)\n", k, line, n);
			return -1 - (int)k;
		}
	}
	/* Not printable ASCII: a dot. */
	hex_dump_to_buffer(odd, 3, 16, 1, line, sizeof(line), true);
	if (strcmp(line + 49, "..Z"))
		return -10;
	/* Too small: terminated, and the length it would need. */
	n = hex_dump_to_buffer(data, 16, 16, 1, small, sizeof(small), true);
	if (n != 65 || strnlen(small, sizeof(small)) == sizeof(small))
		return -11;
	return 0;
}

static int digits(void *arg)
{
	char hex[65] = {0};
	u8 back[32];

	(void)arg;
	if (hex_to_bin('0') != 0 || hex_to_bin('a') != 10 ||
	    hex_to_bin('F') != 15 || hex_to_bin('g') != -1)
		return -1;
	if (bin2hex(hex, data, 32) != hex + 64 || strncmp(hex, "404142", 6))
		return -2;
	if (hex2bin(back, hex, 32) || memcmp(back, data, 32))
		return -3;
	if (hex2bin(back, "12x4", 2) != -EINVAL)
		return -4;
	return 0;
}

static int dump(void *arg)
{
	(void)arg;
	print_hex_dump(KERN_ERR, "hd: ", DUMP_PREFIX_OFFSET, 16, 1, data, 20,
		       false);
	return 0;
}

static void hexdump(void **state)
{
	char out[4096];
	FILE *f = tmpfile();
	int saved = dup(2);
	ssize_t n;

	(void)state;
	for (int i = 0; i < 32; i++)
		data[i] = (u8)(0x40 + i);
	check_boot(2);
	assert_int_equal(check_run(grouping, NULL), 0);
	assert_int_equal(check_run(digits, NULL), 0);
	assert_non_null(f);
	dup2(fileno(f), 2);
	check_run(dump, NULL);
	dup2(saved, 2);
	machine_shutdown();
	n = pread(fileno(f), out, sizeof(out) - 1, 0);
	assert_true(n > 0);
	out[n] = '\0';
	assert_non_null(strstr(out, "hd: 00000000: 40 41 42 43 44 45 46 47 "
				    "48 49 4a 4b 4c 4d 4e 4f\n"));
	assert_non_null(strstr(out, "hd: 00000010: 50 51 52 53\n"));
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hexdump),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
