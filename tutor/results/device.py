"""The device a result names: what a measurement, a bench report or a doctor report says about its machine.

Results cross the worker's pipe and the store as JSON; this is the one place that reads the device out of any of
them (a workload or sweep result's ``device``, a doctor or bench report's ``fingerprint``, an attempt's stored
summary), so no consumer re-guesses the shape. Pure: no torch, no Textual.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Device:
    """The device a result was measured on."""

    kind: str
    """``cpu`` or ``cuda`` (empty when the result did not say)."""
    name: str
    fingerprint: str | None = None
    caches: Mapping[str, int] = field(default_factory=dict)
    """Cache sizes in bytes by level (``L1d``, ``L2``, ``L3``) when the result carried them."""
    fields: Mapping[str, Any] = field(default_factory=dict)
    """The fingerprint's fields (CPU model, cores, driver, torch…) when the result carried them."""

    @classmethod
    def of(cls, result: Mapping[str, Any] | None) -> Device | None:
        """The device of ``result`` (a measurement, sweep, bench or doctor report, or an attempt's measurement
        summary), or None when it names none."""
        if not isinstance(result, Mapping):
            return None
        summary = result.get("summary")
        if "device" not in result and "fingerprint" not in result and isinstance(summary, Mapping):
            result = summary
        device = result.get("device")
        caches = _caches(result)
        if isinstance(device, Mapping):
            fields = device.get("fingerprint_fields")
            return cls(
                kind=str(device.get("kind") or ""),
                name=str(device.get("name") or device.get("kind") or ""),
                fingerprint=str(device["fingerprint"]) if device.get("fingerprint") else _fingerprint_id(result),
                caches=_caches(device) or caches,
                fields=dict(fields) if isinstance(fields, Mapping) else {},
            )
        if isinstance(device, str) and device:
            return cls(kind=device, name=device, fingerprint=_fingerprint_id(result), caches=caches)
        fp = result.get("fingerprint")
        if isinstance(fp, Mapping) and fp.get("device_kind"):  # a doctor or bench report
            return cls(kind=str(fp["device_kind"]), name=str(fp.get("device") or ""),
                       fingerprint=str(fp["id"]) if fp.get("id") else None, caches=caches, fields=dict(fp))
        return None

    def to_json(self) -> dict[str, Any]:
        """The device as a measurement names it: ``{"kind", "name", "fingerprint"}`` plus the caches and the
        fingerprint's fields when known (what :meth:`of` reads back)."""
        out: dict[str, Any] = {"kind": self.kind, "name": self.name, "fingerprint": self.fingerprint}
        if self.caches:
            out["caches"] = {"levels": dict(self.caches)}
        if self.fields:
            out["fingerprint_fields"] = dict(self.fields)
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "device") -> Device:
        """The device of a ``{"kind", "name", ...}`` object (or a bare kind, as old sweep rows stored it);
        :class:`~tutor.results.reading.ResultError` when it is neither."""
        from tutor.results.reading import expected

        device = cls.of({"device": data}) if isinstance(data, Mapping | str) else None
        if device is None:
            raise expected(where, "device", data, show=True)
        return device

    def identity(self) -> Device:
        """The device as a measurement names it: kind, name and fingerprint (not its fingerprint's fields)."""
        return Device(kind=self.kind, name=self.name, fingerprint=self.fingerprint)

    def label(self) -> str:
        """``NVIDIA GeForce RTX 5090 (cuda)`` or ``AMD EPYC 7B13 (cpu)``: how every screen names the device."""
        name = self.name or self.kind or "?"
        return f"{name} ({self.kind})" if self.kind and self.kind != name else name


def _fingerprint_id(result: Mapping[str, Any]) -> str | None:
    fp = result.get("fingerprint")
    if isinstance(fp, Mapping):
        return str(fp["id"]) if fp.get("id") else None
    return str(fp) if isinstance(fp, str) and fp else None


def _caches(holder: Mapping[str, Any]) -> dict[str, int]:
    caches = holder.get("caches")
    if isinstance(caches, Mapping):
        levels = caches.get("levels", caches)
        if isinstance(levels, Mapping):
            return {str(k): int(v) for k, v in levels.items()
                    if isinstance(v, int | float) and not isinstance(v, bool)}
    return {}


def device_label(result: Mapping[str, Any] | Device | None, default: str = "this machine") -> str:
    """The label of a device (or of the device ``result`` names), or ``default`` when there is none."""
    device = result if isinstance(result, Device) else Device.of(result)
    return device.label() if device is not None else default
