/* The C side of the binding-overhead comparison (benches/bindings.sh): bench ROUNDS FILE...
 * Each file recognised ROUNDS times after one warm-up round through folio_recognize_file;
 * prints one JSON line {"file": median seconds, ...}. */
#define _POSIX_C_SOURCE 200809L
#include "folio.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    int rounds = atoi(argv[1]);
    int n = argc - 2;
    folio_engine *engine = NULL;
    if (folio_engine_new(NULL, &engine) != FOLIO_OK) {
        fprintf(stderr, "%s\n", folio_last_error_message());
        return 3;
    }
    double *t = calloc((size_t)(rounds * n), sizeof(double));
    for (int r = 0; r <= rounds; r++) {
        for (int i = 0; i < n; i++) {
            char *json = NULL;
            double s = now();
            folio_recognize_file(engine, argv[2 + i], NULL, NULL, NULL, NULL, &json);
            double e = now() - s;
            folio_string_free(json);
            if (r > 0) t[i * rounds + (r - 1)] = e;
        }
    }
    printf("{");
    for (int i = 0; i < n; i++) {
        qsort(t + i * rounds, (size_t)rounds, sizeof(double), cmp);
        printf("%s\"%s\": %.9f", i ? ", " : "", argv[2 + i], t[i * rounds + rounds / 2]);
    }
    printf("}\n");
    free(t);
    folio_engine_free(engine);
    return 0;
}
