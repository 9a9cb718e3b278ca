"""sensim/_sensim.pyi against the extension it describes, so they cannot drift.

- Every public name of sensim._sensim is in the stubs and the stubs name
  nothing else (their own type aliases start with an underscore).
- Every class has the same methods and attributes in both.
- Every C function, method and constructor has a real signature
  (__text_signature__), and the stubs' parameters equal it: names, kinds
  (positional-only, keyword-only, *args, **kwargs) and defaults.
- py.typed marks the package as typed (PEP 561).
"""

import ast
import inspect
import pathlib

import pytest

import sensim
from sensim import _sensim

PKG = pathlib.Path(sensim.__file__).parent
STUB = ast.parse((PKG / "_sensim.pyi").read_text())
DUNDERS = {"__init__", "__enter__", "__exit__", "__len__", "__new__"}


def stub_defs():
    """name -> ast node of the stubs' top-level definitions."""
    out = {}
    for node in STUB.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out[node.name] = node
        elif isinstance(node, ast.AnnAssign):
            out[node.target.id] = node
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                out[t.id] = node
    return out


DEFS = stub_defs()


def public_names():
    return {n for n in dir(_sensim) if not n.startswith("__")}


def members(cls):
    """The class's own methods and attributes, as the stubs list them."""
    return {k for k in vars(cls) if not k.startswith("__") or k in DUNDERS - {"__init__", "__new__"}}


def stub_members(node):
    names = set()
    for item in node.body:
        if isinstance(item, ast.FunctionDef):
            names.add(item.name)
        elif isinstance(item, ast.AnnAssign):
            names.add(item.target.id)
    return names - {"__init__", "__new__"}


def test_py_typed_marks_the_package():
    assert (PKG / "py.typed").is_file()


def test_stubs_name_exactly_the_public_api():
    stubbed = {n for n in DEFS if not n.startswith("_")} | (
        {"_register_world_class"} & set(DEFS))
    assert stubbed == public_names()


@pytest.mark.parametrize("name", sorted(n for n in public_names()
                                        if isinstance(getattr(_sensim, n), type)
                                        and not issubclass(getattr(_sensim, n), BaseException)
                                        and n != "Pose"))
def test_classes_have_the_same_members(name):
    assert stub_members(DEFS[name]) == members(getattr(_sensim, name))


@pytest.mark.parametrize("name", sorted(n for n in public_names()
                                        if isinstance(getattr(_sensim, n), type)
                                        and issubclass(getattr(_sensim, n), BaseException)))
def test_exceptions_have_the_same_bases(name):
    bases = [b.id for b in DEFS[name].bases]
    assert bases == [b.__name__ for b in getattr(_sensim, name).__bases__]


def runtime_callables():
    """(qualified name, callable, stub node, kind) of every C callable."""
    out = []
    for name in sorted(public_names()):
        obj = getattr(_sensim, name)
        if isinstance(obj, type):
            if issubclass(obj, BaseException):
                continue
            node = DEFS[name]
            methods = {i.name: i for i in node.body if isinstance(i, ast.FunctionDef)}
            if obj.__text_signature__ is not None and name != "Pose":
                out.append((name + ".__init__", obj, methods.get("__init__"), "init"))
            for k, v in vars(obj).items():
                if k in ("__enter__", "__exit__") or (not k.startswith("__") and callable(v)):
                    out.append((name + "." + k, getattr(obj, k), methods.get(k), "method"))
        elif callable(obj):
            out.append((name, obj, DEFS.get(name), "function"))
    return out


CALLABLES = runtime_callables()


def test_every_c_callable_has_a_signature():
    missing = []
    for name, fn, _, _ in CALLABLES:
        try:
            inspect.signature(fn)
        except (ValueError, TypeError):
            missing.append(name)
    assert not missing
    assert len(CALLABLES) > 150


def stub_params(node, kind):
    """[(name, kind, default)] of a stub function; default is the literal or
    inspect.Parameter.empty."""
    a = node.args
    empty = inspect.Parameter.empty
    pos = [(p, inspect.Parameter.POSITIONAL_ONLY) for p in a.posonlyargs] + \
          [(p, inspect.Parameter.POSITIONAL_OR_KEYWORD) for p in a.args]
    defaults = [empty] * (len(pos) - len(a.defaults)) + [ast.literal_eval(d) for d in a.defaults]
    out = [(p.arg, k, d) for (p, k), d in zip(pos, defaults)]
    if a.vararg:
        out.append((a.vararg.arg, inspect.Parameter.VAR_POSITIONAL, empty))
    for p, d in zip(a.kwonlyargs, a.kw_defaults):
        out.append((p.arg, inspect.Parameter.KEYWORD_ONLY, empty if d is None else ast.literal_eval(d)))
    if a.kwarg:
        out.append((a.kwarg.arg, inspect.Parameter.VAR_KEYWORD, empty))
    if kind in ("method", "init") or any(isinstance(d, ast.Name) and d.id == "classmethod"
                                         for d in node.decorator_list):
        out = out[1:]  # self / cls
    return out


@pytest.mark.parametrize("name, fn, node, kind", CALLABLES, ids=[c[0] for c in CALLABLES])
def test_stub_parameters_equal_the_text_signature(name, fn, node, kind):
    assert node is not None, "%s is missing from _sensim.pyi" % name
    sig = inspect.signature(fn)
    want = [(p.name, p.kind, p.default) for p in sig.parameters.values()]
    if kind == "method" and want and want[0][0] == "self":
        want = want[1:]  # an unbound method's self (a classmethod's cls is bound)
    assert stub_params(node, kind) == want


def test_all_lists_the_whole_api():
    want = (public_names() - {"_register_world_class"}) | {"World", "env", "spaces", "tools", "vector"}
    assert set(sensim.__all__) == want and len(sensim.__all__) == len(want)
    assert all(hasattr(sensim, n) for n in sensim.__all__)


def test_version_is_the_cmake_projects():
    import re
    cmake = (pathlib.Path(__file__).resolve().parents[2] / "CMakeLists.txt").read_text()
    assert sensim.__version__ == re.search(r"project\(sensim VERSION ([0-9.]+)", cmake).group(1)


def test_pose_constructor_matches_its_stub():
    node = {i.name: i for i in DEFS["Pose"].body if isinstance(i, ast.FunctionDef)}["__new__"]
    want = [(p.name, p.kind, p.default) for p in inspect.signature(_sensim.Pose).parameters.values()]
    assert stub_params(node, "init") == want
