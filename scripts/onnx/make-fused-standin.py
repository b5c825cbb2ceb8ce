"""
A stand-in for the old default model's file (model_optimized.onnx, an ONNX
Runtime-optimised graph with fused operators), made from the e5 weights in
../shared/models/multilingual-e5-small-int8 with ONNX Runtime's own offline
optimiser, so the embedder's graph changes can be run and measured on that
form (scripts/accept/fused-model.test.ts builds it and caches it).

  python scripts/onnx/make-fused-standin.py IN_MODEL OUT_MODEL

Steps: the int8 graph's weights are expanded back to float32 (each
DynamicQuantizeLinear -> MatMulInteger -> Cast -> Mul chain becomes one MatMul
with the dequantised weight, the quantised embedding table a float one); its
GELU is written as a PyTorch export writes it (x / sqrt 2, where the source
multiplies by 1/sqrt 2); onnxruntime.transformers.optimizer fuses it as a
BERT encoder (12 heads, hidden 384): 24 SkipLayerNormalization and 12
BiasGelu kernels. Its attention stays unfused: the optimiser knows only the
mask paths of PyTorch exports, not this graph's. ONNX Runtime's dynamic
quantisation then makes it int8 again (about the source's size). Deterministic: the same inputs and package versions
(scripts/onnx/fused-standin-requirements.txt) give the same bytes, whose
sha256 the acceptance test checks.
"""
import os
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper
from onnxruntime.quantization import QuantType, quantize_dynamic
from onnxruntime.transformers.optimizer import optimize_model


def dequantised(model: onnx.ModelProto) -> onnx.ModelProto:
    """The graph with every int8 weight expanded to float32 and the quantising nodes removed."""
    graph = model.graph
    inits = {i.name: i for i in graph.initializer}
    producer = {o: n for n in graph.node for o in n.output}
    consumers: dict[str, list[onnx.NodeProto]] = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    array = lambda name: numpy_helper.to_array(inits[name])
    drop: set[int] = set()
    added: list[onnx.TensorProto] = []
    replace: dict[int, onnx.NodeProto] = {}
    for node in graph.node:
        if node.op_type == "MatMulInteger":
            quantise = producer[node.input[0]]
            assert quantise.op_type == "DynamicQuantizeLinear"
            cast = consumers[node.output[0]][0]
            scale_out = consumers[cast.output[0]][0]
            scales = producer[[i for i in scale_out.input if i != cast.output[0]][0]]
            weight_scale = [i for i in scales.input if i != quantise.output[1]][0]
            weight = (array(node.input[1]).astype(np.float32) - array(node.input[3]).astype(np.float32)) * array(weight_scale).astype(np.float32)
            name = node.input[1].removesuffix("_quantized")
            added.append(numpy_helper.from_array(weight.astype(np.float32), name))
            replace[id(node)] = helper.make_node("MatMul", [quantise.input[0], name], [scale_out.output[0]], name=node.name.removesuffix("_quant"))
            drop.update({id(cast), id(scale_out), id(scales)})
        elif node.op_type == "DequantizeLinear":
            gather = producer[node.input[0]]
            assert gather.op_type == "Gather"
            table = (array(gather.input[0]).astype(np.float32) - array(node.input[2]).astype(np.float32)) * array(node.input[1]).astype(np.float32)
            name = gather.input[0].removesuffix("_quantized")
            added.append(numpy_helper.from_array(table.astype(np.float32), name))
            replace[id(gather)] = helper.make_node("Gather", [name, gather.input[1]], [node.output[0]], name=gather.name, axis=0)
            drop.add(id(node))
    nodes = [replace.get(id(n), n) for n in graph.node if id(n) not in drop]
    # DynamicQuantizeLinear nodes whose outputs nothing reads any more go too.
    used = {i for n in nodes for i in n.input} | {o.name for o in graph.output}
    nodes = [n for n in nodes if n.op_type != "DynamicQuantizeLinear" or any(o in used for o in n.output)]
    used = {i for n in nodes for i in n.input}
    del graph.node[:]
    graph.node.extend(nodes)
    kept = [i for i in graph.initializer if i.name in used] + [i for i in added if i.name in used]
    del graph.initializer[:]
    graph.initializer.extend(kept)
    onnx.checker.check_model(model)
    return model


def gelu_as_exported(model: onnx.ModelProto) -> onnx.ModelProto:
    """Every Mul(x, 1/sqrt 2) that feeds an Erf as Div(x, sqrt 2), the form the optimiser's GELU fusion matches."""
    graph = model.graph
    constants = {i.name: numpy_helper.to_array(i) for i in graph.initializer if i.dims == [] or list(i.dims) == [1]}
    producer = {o: n for n in graph.node for o in n.output}
    for erf in [n for n in graph.node if n.op_type == "Erf"]:
        mul = producer[erf.input[0]]
        at = [i for i, name in enumerate(mul.input) if name in constants and constants[name].size == 1 and abs(float(constants[name].reshape(-1)[0]) - 0.5**0.5) < 1e-6]
        assert mul.op_type == "Mul" and at, "the GELU is not x * (1/sqrt 2)"
        mul.op_type = "Div"
        mul.input[:] = [mul.input[1 - at[0]], "standin_sqrt2"]
    graph.initializer.append(numpy_helper.from_array(np.array(2**0.5, dtype=np.float32), "standin_sqrt2"))
    return model


def main(source: str, target: str) -> None:
    plain = gelu_as_exported(dequantised(onnx.load(source)))
    onnx.save(plain, f"{target}.fp32.onnx")
    fused = optimize_model(f"{target}.fp32.onnx", model_type="bert", num_heads=12, hidden_size=384, opt_level=0)
    print("fused:", {k: v for k, v in fused.get_fused_operator_statistics().items() if v})
    fused.save_model_to_file(f"{target}.fused-fp32.onnx")
    quantize_dynamic(f"{target}.fused-fp32.onnx", target, weight_type=QuantType.QInt8, per_channel=False)
    for scratch in (f"{target}.fp32.onnx", f"{target}.fused-fp32.onnx"):
        os.remove(scratch)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
