/*
 * Every status of libfolio pinned from C: the enum values of include/folio.h and the names
 * folio_status_name gives them, and "UNKNOWN" for any other number (ffi/tests/c.rs compiles this
 * file with gcc and runs it). These values are the ABI and never change.
 */
#include "folio.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;

static void pin(int value, int expected, uint32_t number, const char *name) {
    const char *got = folio_status_name(number);
    if (value != expected) {
        fprintf(stderr, "FAIL: FOLIO_%s is %d, pinned %d\n", name, value, expected);
        failures++;
    }
    if (got == NULL || strcmp(got, name) != 0) {
        fprintf(stderr, "FAIL: folio_status_name(%u) is %s, pinned %s\n", (unsigned)number,
                got ? got : "NULL", name);
        failures++;
    }
}

#define PIN(constant, n, name) pin((int)(constant), (n), (constant), (name))

int main(void) {
    PIN(FOLIO_OK, 0, "OK");
    PIN(FOLIO_UNSUPPORTED_FILE_TYPE, 1, "UNSUPPORTED_FILE_TYPE");
    PIN(FOLIO_FILE_TOO_LARGE, 2, "FILE_TOO_LARGE");
    PIN(FOLIO_TOO_MANY_PAGES, 3, "TOO_MANY_PAGES");
    PIN(FOLIO_CORRUPT_FILE, 4, "CORRUPT_FILE");
    PIN(FOLIO_ENCRYPTED_FILE, 5, "ENCRYPTED_FILE");
    PIN(FOLIO_EMPTY_FILE, 6, "EMPTY_FILE");
    PIN(FOLIO_INVALID_ARGUMENT, 7, "INVALID_ARGUMENT");
    PIN(FOLIO_IO_ERROR, 8, "IO_ERROR");
    PIN(FOLIO_RUNTIME_MISSING, 9, "RUNTIME_MISSING");
    PIN(FOLIO_OCR_FAILED, 10, "OCR_FAILED");
    PIN(FOLIO_MODEL_ERROR, 11, "MODEL_ERROR");
    PIN(FOLIO_CANCELLED, 12, "CANCELLED");
    PIN(FOLIO_INTERNAL_ERROR, 13, "INTERNAL_ERROR");
    PIN(FOLIO_SIGNATURE_INVALID, 14, "SIGNATURE_INVALID");
    PIN(FOLIO_RESOURCE_LIMIT, 15, "RESOURCE_LIMIT");
    PIN(FOLIO_NULL_ARGUMENT, 100, "NULL_ARGUMENT");
    PIN(FOLIO_INVALID_UTF8, 101, "INVALID_UTF8");
    PIN(FOLIO_PANIC, 102, "PANIC");

    /* Numbers that are no status: a fixed name, never a crash or NULL. */
    const uint32_t unknown[] = {16, 17, 99, 103, 1000, 0x7fffffffu, 0xffffffffu};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        const char *got = folio_status_name(unknown[i]);
        if (got == NULL || strcmp(got, "UNKNOWN") != 0) {
            fprintf(stderr, "FAIL: folio_status_name(%u) is %s, not UNKNOWN\n",
                    (unsigned)unknown[i], got ? got : "NULL");
            failures++;
        }
    }
    /* An enum value passes as it is (it converts to uint32_t). */
    folio_status st = FOLIO_CORRUPT_FILE;
    if (strcmp(folio_status_name(st), "CORRUPT_FILE") != 0) {
        fprintf(stderr, "FAIL: an enum value\n");
        failures++;
    }

    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    puts("all status pins hold");
    return 0;
}
