//! JSON values (actions, records, summaries) to Python objects and back.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};

/// A JSON value as Python `None`, `bool`, `int`, `float`, `str`, `list` or `dict`.
pub fn to_py(py: Python<'_>, v: &Value) -> PyResult<PyObject> {
    Ok(match v {
        Value::Null => py.None(),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any().unbind(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any().unbind()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any().unbind()
            } else {
                PyFloat::new(py, n.as_f64().unwrap_or(f64::NAN)).into_any().unbind()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any().unbind(),
        Value::Array(a) => {
            let items = a.iter().map(|x| to_py(py, x)).collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any().unbind()
        }
        Value::Object(m) => {
            let d = PyDict::new(py);
            for (k, x) in m {
                d.set_item(k, to_py(py, x)?)?;
            }
            d.into_any().unbind()
        }
    })
}

/// A Python object built of `None`, `bool`, `int`, `float`, `str`, lists, tuples and dicts
/// with string keys, as JSON.
pub fn from_py(o: &Bound<'_, PyAny>) -> PyResult<Value> {
    if o.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = o.downcast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if o.is_instance_of::<PyInt>() {
        if let Ok(i) = o.extract::<i64>() {
            return Ok(Value::from(i));
        }
        return Ok(Value::from(o.extract::<u64>()?));
    }
    if let Ok(f) = o.downcast::<PyFloat>() {
        return Ok(Number::from_f64(f.value()).map_or(Value::Null, Value::Number));
    }
    if let Ok(s) = o.downcast::<PyString>() {
        return Ok(Value::String(s.extract::<String>()?));
    }
    if let Ok(d) = o.downcast::<PyDict>() {
        let mut m = Map::new();
        for (k, v) in d.iter() {
            let key = k
                .downcast::<PyString>()
                .map_err(|_| PyTypeError::new_err(format!("action keys must be strings, not {k}")))?;
            m.insert(key.extract::<String>()?, from_py(&v)?);
        }
        return Ok(Value::Object(m));
    }
    if let Ok(l) = o.downcast::<PyList>() {
        return l.iter().map(|x| from_py(&x)).collect::<PyResult<Vec<_>>>().map(Value::Array);
    }
    if let Ok(t) = o.downcast::<PyTuple>() {
        return t.iter().map(|x| from_py(&x)).collect::<PyResult<Vec<_>>>().map(Value::Array);
    }
    Err(PyTypeError::new_err(format!("cannot read {} as part of an action", o.get_type().name()?)))
}
