#!/usr/bin/env python3
"""Write the small glTF 2.0 files the material-import tests read
(tests/scene/gltf_material_tests.c), with nothing but the standard library:
the JSON, its buffer as a base64 data URI (or a GLB's BIN chunk), and PNG
images (embedded as data URIs, in a buffer view, or beside the file).

Run from anywhere: python3 tests/data/gltf/make_gltf.py
The outputs are committed; rerun after changing this script.

The scene: two unit quads in the XY plane (normal +Z), one glTF mesh of two
primitives with different materials:
  primitive 0: x in [0, 1], material 0, NORMAL, TANGENT (w = -1), TEXCOORD_0
  primitive 1: x in [2, 3], material 1, NORMAL, TEXCOORD_0 (no TANGENT)
Material 0 sets every field sensim maps (values the tests check); material
1 is a plain blended one. Broken variants: a missing texture file, a
negative KHR_materials_ior, an image that is not a PNG, a negative
KHR_materials_emissive_strength.
"""
import base64
import json
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def png(width, height, pixels, channels):
    """PNG (ISO/IEC 15948) of 8-bit RGB (channels 3) or RGBA (4) rows."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    colour = {3: 2, 4: 6}[channels]
    raw = b""
    for y in range(height):
        raw += b"\x00" + bytes(pixels[y * width * channels:(y + 1) * width * channels])
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, colour, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


BASE_PNG = png(2, 1, [255, 128, 0, 64, 0, 0, 255, 255], 4)  # texel 0 alpha 64/255
NORMAL_PNG = png(1, 1, [204, 128, 230], 3)                  # tangent-space (0.6, 0, 0.8)
MR_PNG = png(1, 1, [0, 128, 64], 3)                          # G roughness, B metallic
EMISSIVE_PNG = png(1, 1, [255, 128, 0], 3)


def quad(x0):
    return [x0, 0, 0, x0 + 1, 0, 0, x0 + 1, 1, 0, x0, 1, 0]


def build(variant):
    """(gltf dict, buffer bytes) for a variant."""
    blob = b""
    views = []
    accessors = []

    def add(data, fmt, count, comp, kind, target=None, minmax=None):
        nonlocal blob
        while len(blob) % 4:
            blob += b"\x00"
        raw = struct.pack("<%d%s" % (len(data), fmt), *data)
        view = {"buffer": 0, "byteOffset": len(blob), "byteLength": len(raw)}
        if target:
            view["target"] = target
        views.append(view)
        blob += raw
        acc = {"bufferView": len(views) - 1, "componentType": comp, "count": count, "type": kind}
        if minmax:
            acc["min"], acc["max"] = minmax
        accessors.append(acc)
        return len(accessors) - 1

    FLOAT, USHORT = 5126, 5123
    prims = []
    for p, x0 in enumerate((0.0, 2.0)):
        attrs = {
            "POSITION": add(quad(x0), "f", 4, FLOAT, "VEC3", 34962, ([x0, 0, 0], [x0 + 1, 1, 0])),
            "NORMAL": add([0, 0, 1] * 4, "f", 4, FLOAT, "VEC3", 34962),
            # u along +x, v down the image: v = 1 - y.
            "TEXCOORD_0": add([0, 1, 1, 1, 1, 0, 0, 0], "f", 4, FLOAT, "VEC2", 34962),
        }
        if p == 0:
            attrs["TANGENT"] = add([1, 0, 0, -1] * 4, "f", 4, FLOAT, "VEC4", 34962)
        idx = add([0, 1, 2, 0, 2, 3], "H", 6, USHORT, "SCALAR", 34963)
        prims.append({"attributes": attrs, "indices": idx, "material": p})
    # The normal map lives in a buffer view (an embedded image, not a URI).
    while len(blob) % 4:
        blob += b"\x00"
    views.append({"buffer": 0, "byteOffset": len(blob), "byteLength": len(NORMAL_PNG)})
    blob += NORMAL_PNG
    normal_view = len(views) - 1

    base_uri = "data:image/png;base64," + base64.b64encode(BASE_PNG).decode()
    if variant == "missing_texture":
        base_uri = "missing_base.png"
    if variant == "bad_image":
        base_uri = "not_a_png.png"
    ior = -1.5 if variant == "negative_ior" else 1.33
    gltf = {
        "asset": {"version": "2.0", "generator": "sensim tests/data/gltf/make_gltf.py"},
        "extensionsUsed": ["KHR_materials_emissive_strength", "KHR_materials_transmission", "KHR_materials_ior"],
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": prims}],
        "buffers": [{"byteLength": len(blob)}],
        "bufferViews": views,
        "accessors": accessors,
        "images": [{"uri": base_uri}, {"bufferView": normal_view, "mimeType": "image/png"}, {"uri": "mr.png"},
                   {"uri": "emissive.png"}],
        "samplers": [{"wrapS": 10497, "wrapT": 10497}],
        "textures": [{"source": i, "sampler": 0} for i in range(4)],
        "materials": [{
            "name": "every_field",
            "pbrMetallicRoughness": {
                "baseColorFactor": [0.8, 0.6, 0.4, 0.9],
                "baseColorTexture": {"index": 0},
                "metallicFactor": 0.7,
                "roughnessFactor": 0.6,
                "metallicRoughnessTexture": {"index": 2},
            },
            "normalTexture": {"index": 1, "scale": 0.5},
            "emissiveFactor": [1.0, 0.5, 0.25],
            "emissiveTexture": {"index": 3},
            "alphaMode": "MASK",
            "alphaCutoff": 0.3,
            "extensions": {
                "KHR_materials_emissive_strength": {"emissiveStrength": -4.0 if variant == "negative_strength" else 4.0},
                "KHR_materials_transmission": {"transmissionFactor": 0.25},
                "KHR_materials_ior": {"ior": ior},
            },
        }, {
            "name": "blended",
            "pbrMetallicRoughness": {"baseColorFactor": [0.1, 0.2, 0.3, 0.5], "metallicFactor": 0.0,
                                     "roughnessFactor": 1.0},
            "alphaMode": "BLEND",
        }],
    }
    return gltf, blob


def write_gltf(name, variant):
    gltf, blob = build(variant)
    gltf["buffers"][0]["uri"] = "data:application/octet-stream;base64," + base64.b64encode(blob).decode()
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(gltf, f, indent=1)
        f.write("\n")


def write_glb(name):
    """GLB container (glTF 2.0 sec. 4.4): header, JSON chunk, BIN chunk."""
    gltf, blob = build("ok")
    js = json.dumps(gltf).encode()
    js += b" " * (-len(js) % 4)
    blob += b"\x00" * (-len(blob) % 4)
    body = struct.pack("<I4s", len(js), b"JSON") + js + struct.pack("<I4s", len(blob), b"BIN\x00") + blob
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(struct.pack("<4sII", b"glTF", 2, 12 + len(body)) + body)


def main():
    with open(os.path.join(HERE, "mr.png"), "wb") as f:
        f.write(MR_PNG)
    with open(os.path.join(HERE, "emissive.png"), "wb") as f:
        f.write(EMISSIVE_PNG)
    with open(os.path.join(HERE, "not_a_png.png"), "w") as f:
        f.write("this is not a PNG file\n")
    write_gltf("materials.gltf", "ok")
    write_glb("materials.glb")
    write_gltf("missing_texture.gltf", "missing_texture")
    write_gltf("negative_ior.gltf", "negative_ior")
    write_gltf("bad_image.gltf", "bad_image")
    write_gltf("negative_emissive_strength.gltf", "negative_strength")


if __name__ == "__main__":
    main()
