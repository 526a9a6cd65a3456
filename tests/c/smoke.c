/*
 * C tests of libfolio, compiled with gcc against include/folio.h (ffi/tests/c.rs builds and runs
 * this file against the shared and the static library, and under valgrind).
 *
 * Usage: smoke FIXTURES_DIR
 */
#define _POSIX_C_SOURCE 200809L
#include "folio.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int failures = 0;
static const char *fixtures = ".";

#define CHECK(cond, ...)                                                    \
    do {                                                                    \
        if (!(cond)) {                                                      \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                   \
            fprintf(stderr, "\n");                                          \
            failures++;                                                     \
        }                                                                   \
    } while (0)

static char *path_of(const char *name) {
    size_t n = strlen(fixtures) + strlen(name) + 2;
    char *p = malloc(n);
    snprintf(p, n, "%s/%s", fixtures, name);
    return p;
}

static unsigned char *read_file(const char *name, size_t *len) {
    char *p = path_of(name);
    FILE *f = fopen(p, "rb");
    free(p);
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc((size_t)n);
    *len = fread(buf, 1, (size_t)n, f);
    fclose(f);
    return buf;
}

/* Progress: remembers which stages were seen. */
struct seen {
    int preprocessing, text_extracting, validating, calls;
};

static void on_progress(const char *stage, uint32_t page, void *user_data) {
    struct seen *s = user_data;
    (void)page;
    s->calls++;
    if (strcmp(stage, "PREPROCESSING") == 0) s->preprocessing = 1;
    if (strcmp(stage, "TEXT_EXTRACTING") == 0) s->text_extracting = 1;
    if (strcmp(stage, "VALIDATING") == 0) s->validating = 1;
}

static void test_version(void) {
    char expected[32];
    snprintf(expected, sizeof expected, "%d.%d.%d", FOLIO_VERSION_MAJOR, FOLIO_VERSION_MINOR,
             FOLIO_VERSION_PATCH);
    CHECK(strcmp(folio_version(), expected) == 0, "%s vs %s", folio_version(), expected);
    CHECK(strcmp(folio_status_name(FOLIO_CORRUPT_FILE), "CORRUPT_FILE") == 0, "status name");
    CHECK(FOLIO_SIGNATURE_INVALID == 14 && FOLIO_PANIC == 102, "fixed values");
}

static void test_path_and_buffer(folio_engine *engine) {
    struct seen s = {0};
    char *json = NULL;
    char *path = path_of("invoice_de_text.pdf");
    folio_status st = folio_recognize_file(engine, path, NULL, on_progress, &s, NULL, &json);
    free(path);
    CHECK(st == FOLIO_OK, "file: %s", folio_last_error_message());
    CHECK(json && strstr(json, "\"RE-2024-10457\""), "number in the result");
    CHECK(json && strstr(json, "\"schema_version\":\"1.0\""), "schema version");
    CHECK(s.preprocessing && s.text_extracting && s.validating, "stages reported (%d calls)", s.calls);
    CHECK(strcmp(folio_last_error_message(), "") == 0, "no error after success");
    folio_string_free(json);

    size_t len = 0;
    unsigned char *buf = read_file("invoice_en_text.pdf", &len);
    CHECK(buf != NULL, "fixture readable");
    json = NULL;
    st = folio_recognize_buffer(engine, buf, len, "invoice.pdf", "{\"pages\": \"1\"}", NULL, NULL,
                                NULL, &json);
    CHECK(st == FOLIO_OK, "buffer: %s", folio_last_error_message());
    CHECK(json && strstr(json, "\"INV-2024-0312\""), "number from a buffer");
    folio_string_free(json);
    free(buf);
}

/* Pre-recognised input: words JSON and hOCR, decided by content, run from cleaning onwards. */
static void test_pre_recognised(folio_engine *engine) {
    const char *words =
        "{\"pages\": [{\"width\": 1240, \"height\": 1754, \"words\": ["
        "{\"text\": \"INVOICE\", \"bbox\": [120, 100, 260, 128]},"
        "{\"text\": \"Invoice No.: INV-1001\", \"bbox\": [120, 145, 420, 173], \"confidence\": 0.97},"
        "{\"text\": \"Invoice date: 12.03.2024\", \"bbox\": [120, 190, 460, 218]},"
        "{\"text\": \"Total 119.00 EUR\", \"bbox\": [120, 235, 350, 263], \"confidence\": 91}]}]}";
    char *json = NULL;
    folio_status st = folio_recognize_buffer(engine, (const uint8_t *)words, strlen(words), NULL,
                                             NULL, NULL, NULL, NULL, &json);
    CHECK(st == FOLIO_OK, "words JSON: %s", folio_last_error_message());
    CHECK(json && strstr(json, "\"INV-1001\""), "number from words");
    CHECK(json && strstr(json, "\"2024-03-12\""), "date from words");
    CHECK(json && strstr(json, "\"119.00\""), "total from words");
    folio_string_free(json);

    const char *hocr =
        "<html><body><div class='ocr_page' title='bbox 0 0 1240 1754'>"
        "<span class='ocr_line' title='bbox 120 145 420 173'>"
        "<span class='ocrx_word' title='bbox 120 145 220 173; x_wconf 95'>Invoice</span> "
        "<span class='ocrx_word' title='bbox 230 145 290 173; x_wconf 94'>No.:</span> "
        "<span class='ocrx_word' title='bbox 300 145 420 173; x_wconf 96'>INV-2002</span>"
        "</span></div></body></html>";
    json = NULL;
    st = folio_recognize_buffer(engine, (const uint8_t *)hocr, strlen(hocr), "page.hocr", NULL,
                                NULL, NULL, NULL, &json);
    CHECK(st == FOLIO_OK, "hOCR: %s", folio_last_error_message());
    CHECK(json && strstr(json, "\"INV-2002\""), "number from hOCR");
    folio_string_free(json);

    const char *bad = "{\"pages\": [{\"width\": 0, \"height\": 1, \"words\": []}]}";
    json = (char *)1;
    st = folio_recognize_buffer(engine, (const uint8_t *)bad, strlen(bad), "words.json", NULL,
                                NULL, NULL, NULL, &json);
    CHECK(st == FOLIO_CORRUPT_FILE, "bad words: %s", folio_status_name(st));
    CHECK(json == NULL, "out is NULL on error");
    CHECK(strstr(folio_last_error_message(), "width") != NULL, "the message names the problem: %s",
          folio_last_error_message());
}

/* E-invoices: a standalone CII XML and a Factur-X PDF, the values from the XML; a PDF whose
 * attachment is an entity bomb is read from its page with a warning; other XML is refused. */
static void test_einvoice(folio_engine *engine) {
    char *json = NULL;
    char *path = path_of("einvoice_cii.xml");
    folio_status st = folio_recognize_file(engine, path, NULL, NULL, NULL, NULL, &json);
    free(path);
    CHECK(st == FOLIO_OK, "CII XML: %s", folio_last_error_message());
    CHECK(json && strstr(json, "\"FV/2024/03/120\""), "number from the XML");
    CHECK(json && strstr(json, "\"2424.66\""), "total from the XML");
    folio_string_free(json);

    json = NULL;
    path = path_of("einvoice_facturx_en16931.pdf");
    st = folio_recognize_file(engine, path, NULL, NULL, NULL, NULL, &json);
    free(path);
    CHECK(st == FOLIO_OK, "Factur-X: %s", folio_last_error_message());
    CHECK(json && strstr(json, "\"RE-2024-10458\""), "number of the Factur-X invoice");
    CHECK(json && strstr(json, "\"E_INVOICE\""), "evidence from the e-invoice");
    folio_string_free(json);

    json = NULL;
    path = path_of("einvoice_bad_entity_bomb.pdf");
    st = folio_recognize_file(engine, path, NULL, NULL, NULL, NULL, &json);
    free(path);
    CHECK(st == FOLIO_OK, "entity bomb attachment: %s", folio_last_error_message());
    CHECK(json && strstr(json, "\"E_INVOICE_UNREADABLE\""), "warning for the attachment");
    CHECK(json && strstr(json, "\"FA-2024-0090\""), "number read from the page");
    folio_string_free(json);

    const char *other = "<?xml version=\"1.0\"?><catalog><book>Rust</book></catalog>";
    json = (char *)1;
    st = folio_recognize_buffer(engine, (const uint8_t *)other, strlen(other), "x.xml", NULL, NULL,
                                NULL, NULL, &json);
    CHECK(st == FOLIO_UNSUPPORTED_FILE_TYPE, "other XML: %s", folio_status_name(st));
    CHECK(json == NULL, "out is NULL on error");
}

static void test_errors(folio_engine *engine) {
    char *json = (char *)1;
    folio_status st = folio_recognize_file(engine, "/nonexistent/file.pdf", NULL, NULL, NULL, NULL,
                                           &json);
    CHECK(st == FOLIO_IO_ERROR, "missing file: %s", folio_status_name(st));
    CHECK(json == NULL, "out is NULL on error");
    CHECK(strlen(folio_last_error_message()) > 0, "a message");
    CHECK(folio_last_error_code() == FOLIO_IO_ERROR, "last code");

    st = folio_recognize_buffer(engine, NULL, 0, NULL, NULL, NULL, NULL, NULL, &json);
    CHECK(st == FOLIO_EMPTY_FILE, "empty: %s", folio_status_name(st));

    const char *text = "just some text, not a document";
    st = folio_recognize_buffer(engine, (const uint8_t *)text, strlen(text), "x.pdf", NULL, NULL,
                                NULL, NULL, &json);
    CHECK(st == FOLIO_UNSUPPORTED_FILE_TYPE, "text: %s", folio_status_name(st));

    char *path = path_of("bad_encrypted.pdf");
    st = folio_recognize_file(engine, path, NULL, NULL, NULL, NULL, &json);
    free(path);
    CHECK(st == FOLIO_ENCRYPTED_FILE, "encrypted: %s", folio_status_name(st));

    path = path_of("invoice_de_text.pdf");
    st = folio_recognize_file(engine, path, "{\"pages\": \"0\"}", NULL, NULL, NULL, &json);
    CHECK(st == FOLIO_INVALID_ARGUMENT, "bad pages: %s", folio_status_name(st));
    st = folio_recognize_file(engine, path, "{not json", NULL, NULL, NULL, &json);
    CHECK(st == FOLIO_INVALID_ARGUMENT, "bad options: %s", folio_status_name(st));
    st = folio_recognize_file(engine, path, NULL, NULL, NULL, NULL, NULL);
    CHECK(st == FOLIO_NULL_ARGUMENT, "NULL out");
    st = folio_recognize_file(NULL, path, NULL, NULL, NULL, NULL, &json);
    CHECK(st == FOLIO_NULL_ARGUMENT, "NULL engine");
    st = folio_recognize_file(engine, NULL, NULL, NULL, NULL, NULL, &json);
    CHECK(st == FOLIO_NULL_ARGUMENT, "NULL path");
    const char bad_utf8[] = {'a', (char)0xff, 'b', 0};
    st = folio_recognize_file(engine, bad_utf8, NULL, NULL, NULL, NULL, &json);
    CHECK(st == FOLIO_INVALID_UTF8, "invalid UTF-8: %s", folio_status_name(st));
    free(path);

    folio_engine *bad = (folio_engine *)1;
    st = folio_engine_new("{\"languages\": [\"xx\"]}", &bad);
    CHECK(st == FOLIO_INVALID_ARGUMENT && bad == NULL, "bad config: %s", folio_status_name(st));
    CHECK(folio_engine_new(NULL, NULL) == FOLIO_NULL_ARGUMENT, "NULL out handle");

    /* NULL everywhere else is harmless. */
    folio_string_free(NULL);
    folio_engine_free(NULL);
    folio_cancel_free(NULL);
    folio_cancel_request(NULL);
}

/* Page images: page 1 of a text PDF as a PNG with the evidence boxes drawn, the boxes as JSON;
 * NULL pointers, pages the Result does not describe and documents without page images are
 * errors. */
static void test_render(folio_engine *engine) {
    size_t len = 0;
    unsigned char *buf = read_file("invoice_de_text.pdf", &len);
    CHECK(buf != NULL, "fixture readable");
    char *json = NULL;
    folio_status st = folio_recognize_buffer(engine, buf, len, NULL, NULL, NULL, NULL, NULL, &json);
    CHECK(st == FOLIO_OK && json, "recognised: %s", folio_last_error_message());
    CHECK(json && strstr(json, "\"pages\":[{\"page\":1,"), "page geometry in the result");

    uint8_t *png = NULL;
    size_t png_len = 0;
    st = folio_render_page(engine, buf, len, json, 1, 800, 1, &png, &png_len);
    CHECK(st == FOLIO_OK, "render: %s", folio_last_error_message());
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    CHECK(png && png_len > 1000 && memcmp(png, signature, 8) == 0, "a PNG (%zu bytes)", png_len);
    folio_buffer_free(png, png_len);

    char *boxes = NULL;
    st = folio_field_boxes(engine, buf, len, json, 1, 800, &boxes);
    CHECK(st == FOLIO_OK, "boxes: %s", folio_last_error_message());
    CHECK(boxes && strstr(boxes, "\"field\":\"/totals/total\""), "the total's box: %s",
          boxes ? boxes : "(null)");
    CHECK(boxes && strstr(boxes, "\"rect\":["), "rectangles");
    folio_string_free(boxes);

    png = (uint8_t *)1;
    png_len = 7;
    st = folio_render_page(engine, buf, len, NULL, 1, 800, 1, &png, &png_len);
    CHECK(st == FOLIO_NULL_ARGUMENT, "NULL result: %s", folio_status_name(st));
    CHECK(png == NULL && png_len == 0, "outputs cleared on error");
    CHECK(strstr(folio_last_error_message(), "result_json") != NULL, "%s",
          folio_last_error_message());
    st = folio_render_page(engine, buf, len, json, 1, 800, 1, NULL, &png_len);
    CHECK(st == FOLIO_NULL_ARGUMENT, "NULL out_png: %s", folio_status_name(st));
    st = folio_render_page(NULL, buf, len, json, 1, 800, 1, &png, &png_len);
    CHECK(st == FOLIO_NULL_ARGUMENT, "NULL engine: %s", folio_status_name(st));
    st = folio_field_boxes(engine, buf, len, json, 1, 800, NULL);
    CHECK(st == FOLIO_NULL_ARGUMENT, "NULL out_json: %s", folio_status_name(st));
    st = folio_render_page(engine, buf, len, json, 2, 800, 1, &png, &png_len);
    CHECK(st == FOLIO_INVALID_ARGUMENT, "page 2: %s", folio_status_name(st));
    st = folio_render_page(engine, buf, len, "{not json", 1, 800, 1, &png, &png_len);
    CHECK(st == FOLIO_INVALID_ARGUMENT, "bad result: %s", folio_status_name(st));
    free(buf);

    /* An office file has no page image, whatever the Result says (the type is checked first). */
    buf = read_file("invoice_en_docx.docx", &len);
    CHECK(buf != NULL, "DOCX readable");
    st = folio_render_page(engine, buf, len, json, 1, 800, 0, &png, &png_len);
    CHECK(st == FOLIO_UNSUPPORTED_FILE_TYPE, "DOCX has no page image: %s", folio_status_name(st));
    CHECK(png == NULL, "no PNG");
    folio_string_free(json);
    free(buf);
    folio_buffer_free(NULL, 0);
}

/* Several threads, one engine. */
struct job {
    folio_engine *engine;
    const char *file;
    const char *number;
    int ok;
};

static void *run_job(void *arg) {
    struct job *j = arg;
    char *path = path_of(j->file);
    for (int i = 0; i < 3; i++) {
        char *json = NULL;
        folio_status st = folio_recognize_file(j->engine, path, NULL, NULL, NULL, NULL, &json);
        if (st == FOLIO_OK && json && strstr(json, j->number)) j->ok++;
        folio_string_free(json);
    }
    free(path);
    return NULL;
}

static void test_threads(folio_engine *engine) {
    struct job jobs[4] = {
        {engine, "invoice_de_text.pdf", "RE-2024-10457", 0},
        {engine, "invoice_en_text.pdf", "INV-2024-0312", 0},
        {engine, "invoice_fr_text.pdf", "FA-2024-0088", 0},
        {engine, "invoice_pl_text.pdf", "FV/2024/03/117", 0},
    };
    pthread_t t[4];
    for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, run_job, &jobs[i]);
    for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
    for (int i = 0; i < 4; i++) CHECK(jobs[i].ok == 3, "%s: %d of 3", jobs[i].file, jobs[i].ok);
}

/* Cancellation from another thread, in the middle of a recognition. */
struct canceller {
    folio_cancel *cancel;
    int started;
};

static void *do_cancel(void *arg) {
    folio_cancel_request(((struct canceller *)arg)->cancel);
    return NULL;
}

static void cancel_on_ocr(const char *stage, uint32_t page, void *user_data) {
    struct canceller *c = user_data;
    (void)page;
    if (!c->started && strcmp(stage, "OCR_PROCESSING") == 0) {
        c->started = 1;
        pthread_t t;
        pthread_create(&t, NULL, do_cancel, c);
        pthread_join(t, NULL);
    }
}

static void test_cancel(folio_engine *engine) {
    struct canceller c = {folio_cancel_new(), 0};
    char *json = NULL;
    char *path = path_of("invoice_de_scan.png");
    folio_status st = folio_recognize_file(engine, path, NULL, cancel_on_ocr, &c, c.cancel, &json);
    CHECK(c.started, "OCR stage reached");
    CHECK(st == FOLIO_CANCELLED, "cancelled: %s", folio_status_name(st));
    CHECK(json == NULL, "no result");
    folio_cancel_free(c.cancel);
    /* The engine is still fine afterwards. */
    st = folio_recognize_file(engine, path, "{\"languages\": [\"de\"]}", NULL, NULL, NULL, &json);
    CHECK(st == FOLIO_OK, "after cancel: %s", folio_last_error_message());
    folio_string_free(json);
    free(path);
}

static void test_webhook(void) {
    /* HMAC-SHA256("k", "100.{}") computed with Python's hmac module. */
    const char *sig = "sha256=cbc154d9aa932703113b6e9e9dd73e1def00f57dd87039a465d6baee5ddebe85";
    const char *body = "{}";
    folio_status st = folio_webhook_verify("k", "100", sig, (const uint8_t *)body, 2, 160, 300);
    CHECK(st == FOLIO_OK, "valid signature: %s", folio_last_error_message());
    st = folio_webhook_verify("k", "100", sig, (const uint8_t *)body, 2, 1000, 300);
    CHECK(st == FOLIO_SIGNATURE_INVALID, "stale timestamp refused");
    st = folio_webhook_verify("k", "100", "sha256=00", (const uint8_t *)body, 2, 100, 300);
    CHECK(st == FOLIO_SIGNATURE_INVALID, "wrong signature refused");
    st = folio_webhook_verify(NULL, "100", "x", (const uint8_t *)body, 2, 100, 300);
    CHECK(st == FOLIO_NULL_ARGUMENT, "NULL secret");
}

/* Usage: smoke [FIXTURES_DIR [ENGINE_CONFIG_JSON]] */
int main(int argc, char **argv) {
    if (argc > 1) fixtures = argv[1];
    const char *config = argc > 2 ? argv[2] : "{\"languages\": [\"en\", \"de\", \"fr\", \"pl\"]}";
    test_version();
    folio_engine *engine = NULL;
    folio_status st = folio_engine_new(config, &engine);
    if (st != FOLIO_OK) {
        fprintf(stderr, "engine: %s: %s\n", folio_status_name(st), folio_last_error_message());
        return 2;
    }
    test_path_and_buffer(engine);
    test_pre_recognised(engine);
    test_einvoice(engine);
    test_errors(engine);
    test_render(engine);
    test_threads(engine);
    test_cancel(engine);
    test_webhook();
    folio_engine_free(engine);
    if (failures) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    printf("all C tests passed\n");
    return 0;
}
