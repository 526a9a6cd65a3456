// The header compiles as C++ too (ffi/tests/c.rs checks it with g++).
#include "folio.h"

int main() {
    folio_engine *engine = nullptr;
    folio_status st = folio_engine_new(nullptr, &engine);
    folio_engine_free(engine);
    return st == FOLIO_OK ? 0 : static_cast<int>(st);
}
