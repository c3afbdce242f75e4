/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal unit-test harness: each tests/unit/<layer>/test_*.c is one
 * program whose main() calls RUN(fn) for each case.  CHECK records a failure and goes on;
 * the program prints "PASS: name" / "FAIL: name" per case and exits 1 when
 * anything failed, which automake's test driver reports.
 */
#ifndef NG_TEST_H
#define NG_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_case_failed;
static int test_failures;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
			test_case_failed = 1;                                                      \
		}                                                                                  \
	} while (0)

#define CHECK_EQ_U64(a, b)                                                                         \
	do {                                                                                       \
		uint64_t va_ = (uint64_t)(a), vb_ = (uint64_t)(b);                                 \
		if (va_ != vb_) {                                                                  \
			fprintf(stderr, "%s:%d: %s == %" PRIu64 ", expected %s == %" PRIu64 "\n",  \
				__FILE__, __LINE__, #a, va_, #b, vb_);                             \
			test_case_failed = 1;                                                      \
		}                                                                                  \
	} while (0)

#define RUN(fn)                                                                                    \
	do {                                                                                       \
		test_case_failed = 0;                                                              \
		fn();                                                                              \
		printf("%s: %s\n", test_case_failed ? "FAIL" : "PASS", #fn);                       \
		test_failures += test_case_failed;                                                 \
	} while (0)

#define TEST_EXIT() return test_failures ? 1 : 0

#endif
