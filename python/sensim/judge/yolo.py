"""sensim.judge.yolo: datasets of images and YOLO labels, read and checked.

A dataset folder holds ``images/`` (PNG or JPEG files) and ``labels/``
with one ``<image stem>.txt`` per image: one line per object, ``class cx
cy w h``, the box's centre and size normalised by the image's width and
height (the YOLO text format). ``content.csv`` (written by ``sensim
dataset``) gives each image's content key; without it images are keyed
by name order. ``classes.txt`` (in the folder or its parent) names the
classes, one per line.

Everything is checked on reading, and the first problem raises
JudgeDataError naming the file (and line): a missing label file, a line
that is not five numbers, a class id out of range, a box outside the
image or of zero size, an image that does not decode, an empty dataset.
Writers never overwrite an existing file.
"""

import csv
import math
import os

import numpy as np

from .errors import JudgeDataError

IMAGE_EXTENSIONS = (".png", ".jpg", ".jpeg")
# Normalised coordinates are written with 6 decimals (half a unit of the
# last place is 5e-7): a box edge that rounding puts a hair outside [0, 1]
# is still inside the image.
EDGE_TOLERANCE = 1e-6


class Dataset:
    """Images (uint8, N x S x S x 3), boxes and content keys of one folder.

    boxes[i] is a float array (k, 5): class, cx, cy, w, h (normalised).
    keys[i] is the image's content.csv row (a dict of strings), or None.
    """

    def __init__(self, root, names, images, boxes, keys, class_names):
        self.root = root
        self.names = names
        self.images = images
        self.boxes = boxes
        self.keys = keys
        self.class_names = class_names

    def __len__(self):
        return len(self.names)

    @property
    def nclasses(self):
        return len(self.class_names)

    def subset(self, index):
        index = list(index)
        return Dataset(self.root, [self.names[i] for i in index], self.images[index],
                       [self.boxes[i] for i in index], [self.keys[i] for i in index], self.class_names)


def read_class_names(root):
    """Class names from classes.txt in root or its parent; JudgeDataError if neither has one."""
    for d in (root, os.path.dirname(os.path.abspath(root))):
        path = os.path.join(d, "classes.txt")
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as fp:
                names = [ln.strip() for ln in fp if ln.strip()]
            if not names:
                raise JudgeDataError(f"{path}: no class names")
            return names
    raise JudgeDataError(f"{root}: no classes.txt here or in the parent folder (one class name per line)")


def parse_label_file(path, nclasses):
    """A label file's boxes as an array (k, 5); JudgeDataError naming path:line."""
    rows = []
    with open(path, encoding="utf-8") as fp:
        for lineno, line in enumerate(fp, 1):
            fields = line.split()
            if not fields:
                continue
            where = f"{path}:{lineno}"
            if len(fields) != 5:
                raise JudgeDataError(f"{where}: expected 'class cx cy w h', got {len(fields)} fields")
            try:
                vals = [float(f) for f in fields]
            except ValueError:
                raise JudgeDataError(f"{where}: not a number in '{line.strip()}'") from None
            c, cx, cy, w, h = vals
            if not all(math.isfinite(v) for v in vals):
                raise JudgeDataError(f"{where}: a value is not finite")
            if c != int(c) or not 0 <= c < nclasses:
                raise JudgeDataError(f"{where}: class id {fields[0]} out of range 0..{nclasses - 1}")
            if not (w > 0 and h > 0):
                raise JudgeDataError(f"{where}: box size {w:g} x {h:g} must be > 0")
            t = EDGE_TOLERANCE
            if cx - w / 2 < -t or cx + w / 2 > 1 + t or cy - h / 2 < -t or cy + h / 2 > 1 + t:
                raise JudgeDataError(f"{where}: box (cx {cx:g}, cy {cy:g}, w {w:g}, h {h:g}) lies outside "
                                     "the image (normalised coordinates must stay in [0, 1])")
            rows.append(vals)
    return np.array(rows, dtype=np.float64).reshape(-1, 5)


def load_image(path, size):
    """An image file as uint8 (size, size, 3), resized bilinearly when it is not that size."""
    from PIL import Image, UnidentifiedImageError
    try:
        with Image.open(path) as im:
            im.load()
            im = im.convert("RGB")
            if im.size != (size, size):
                im = im.resize((size, size), Image.BILINEAR)
            return np.asarray(im, dtype=np.uint8).copy()
    except (OSError, UnidentifiedImageError, ValueError, SyntaxError) as e:
        raise JudgeDataError(f"{path}: not a readable image ({e})") from None


def read_content_keys(root):
    """content.csv rows by image name, or None without the file."""
    path = os.path.join(root, "content.csv")
    if not os.path.isfile(path):
        return None
    with open(path, newline="", encoding="utf-8") as fp:
        rows = list(csv.DictReader(fp))
    if rows and "image" not in rows[0]:
        raise JudgeDataError(f"{path}: no 'image' column")
    return {r["image"]: r for r in rows}


def read_dataset(root, size=96, class_names=None):
    """Read and check a dataset folder (module docstring); returns a Dataset."""
    if not os.path.isdir(root):
        raise JudgeDataError(f"{root}: no such dataset folder")
    img_dir = os.path.join(root, "images")
    lab_dir = os.path.join(root, "labels")
    if not os.path.isdir(img_dir):
        raise JudgeDataError(f"{img_dir}: missing (a dataset holds images/ and labels/)")
    names = sorted(n for n in os.listdir(img_dir) if n.lower().endswith(IMAGE_EXTENSIONS))
    if not names:
        raise JudgeDataError(f"{img_dir}: empty dataset (no .png or .jpg image)")
    if class_names is None:
        class_names = read_class_names(root)
    keys_by_name = read_content_keys(root)
    images = np.empty((len(names), size, size, 3), dtype=np.uint8)
    boxes, keys = [], []
    for i, name in enumerate(names):
        label = os.path.join(lab_dir, os.path.splitext(name)[0] + ".txt")
        if not os.path.isfile(label):
            raise JudgeDataError(f"{label}: missing label file for image {os.path.join(img_dir, name)}")
        boxes.append(parse_label_file(label, len(class_names)))
        images[i] = load_image(os.path.join(img_dir, name), size)
        if keys_by_name is not None and name not in keys_by_name:
            raise JudgeDataError(f"{os.path.join(root, 'content.csv')}: no row for image {name}")
        keys.append(keys_by_name[name] if keys_by_name is not None else None)
    return Dataset(root, names, images, boxes, keys, list(class_names))


def format_boxes(boxes):
    """YOLO text of an array (k, 5) or (k, 6) (class, cx, cy, w, h[, score])."""
    lines = []
    for b in np.asarray(boxes, dtype=np.float64).reshape(-1, np.shape(boxes)[-1] if len(boxes) else 5):
        extra = f" {b[5]:.6f}" if len(b) > 5 else ""
        lines.append(f"{int(b[0])} {b[1]:.6f} {b[2]:.6f} {b[3]:.6f} {b[4]:.6f}{extra}\n")
    return "".join(lines)


def write_labels(path, boxes):
    """Write boxes as a YOLO label file; JudgeDataError if path exists (nothing is overwritten)."""
    if os.path.exists(path):
        raise JudgeDataError(f"{path}: exists; not overwritten")
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fp:
        fp.write(format_boxes(boxes))
    os.replace(tmp, path)
