#!/usr/bin/env bash
# Session 45: the codec CLI over main's kernels after the lean-range merge, for issue #3's committed sweep:
# 1. the split layout, every dtype and data set, 64 KiB-4 GiB, whole chip; 2. under 8, 16 and 32 SMs with
# session 44's rule (every call kept to its budget's SMs; session 44's budget rows ran under the old spread),
# every dtype and data set, 1 MiB-1 GiB. Each stage under `timeout` (the CLI writes what it
# measured when stopped). Carry [".carry-run"] (gpu/ = main's build, deno.xz, weights/ch_PP-OCRv4_rec_infer.onnx,
# commit); bench/results/ out of the tree for the call.
set -u
source scripts/device_env.sh
export CUDA_VISIBLE_DEVICES=0
tail -1 "$R/gpu.txt"
export CLI_SHOW=gaussian
# STAGES (default "split split_sms") picks the stages.
case " ${STAGES:-split split_sms} " in *" split "*)
codec_cli split 280 --split --sizes 64K,1M,16M,256M,1G,4G --dtypes bf16,fp16,fp32,fp8 --data uniform,gaussian,weights \
  --sms 0 --repeat 10 ;;
esac
case " ${STAGES:-split split_sms} " in *" split_sms "*)
codec_cli split_sms 280 --split --sizes 1M,16M,256M,1G --dtypes bf16,fp16,fp32,fp8 --data uniform,gaussian,weights \
  --sms 8,16,32 --repeat 10 ;;
esac
