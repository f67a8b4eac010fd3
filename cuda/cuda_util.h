// Helpers shared by cuda_api.cc and gpu_codec.cu: lazy device probing and CUDA error translation.
#pragma once

#include <cuda_runtime.h>
#include <stdint.h>

// UZIP_OK when at least one CUDA device is usable, else sets the last error and returns NO_DEVICE.
int uzipCudaAvailable(void);
// UZIP_OK for a usable device index, else NO_DEVICE / INVALID_ARG with a message.
int uzipCudaCheckDevice(int32_t device);
// Translates a CUDA error (message carries cudaGetErrorString) and clears the runtime's last error.
int uzipCudaCheck(cudaError_t e, const char* what);
