// The point-to-point engine behind uzipP2pRun (see uzip_comm.h and p2p.cc).
#pragma once

namespace uzip {

struct Comm;
// Frees the engine's staging buffers, codec contexts, events and pinned words (called by destroy).
void p2pEngineDestroy(Comm* c);

}  // namespace uzip
