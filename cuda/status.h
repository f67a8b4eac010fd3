// Thread-local last-error handling shared by every C ABI function of libuzip.
#pragma once

#include "uzip.h"

#ifdef __cplusplus
extern "C" {
#endif

// Records a failure message for uzipLastError() on this thread and returns `status`, so that callers
// can write `return uzipSetError(UZIP_ERR_CORRUPT, "block %u: ...", b);`.
int uzipSetError(int status, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
// Clears the message (called on entry by public functions that succeed).
void uzipClearError(void);
// Returns status, having copied this thread's message into msg (capacity bytes, NUL-terminated) when status is
// a failure and msg is non-null: the *Msg entry points' way out of a thread the caller cannot read.
int uzipCopyError(int status, char* msg, uint64_t capacity);

#ifdef __cplusplus
}
#endif
