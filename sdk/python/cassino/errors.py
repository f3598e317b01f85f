"""Readable errors from the referee's google.rpc.Status details.

Every error the referee returns carries, besides its code and message, a
google.rpc.Status in the `grpc-status-details-bin` trailer with an
ErrorInfo (a stable `reason` such as "ILLEGAL_MOVE" and metadata) and, for
bad requests, a BadRequest naming each wrong field (docs/referee.md,
*Error details*). RefereeError holds them decoded.
"""

from dataclasses import dataclass, field

import grpc

from cassino._rpc import error_details_pb2, status_pb2

DETAILS_KEY = "grpc-status-details-bin"


@dataclass
class RefereeError(Exception):
    """An RPC the referee refused or that failed."""

    code: grpc.StatusCode
    message: str
    reason: str = ""  # ErrorInfo.reason: "ILLEGAL_MOVE", "NOT_YOUR_TURN", ...
    metadata: dict = field(default_factory=dict)  # ErrorInfo.metadata
    # BadRequest: (field, description) per wrong field of the request.
    field_violations: list = field(default_factory=list)

    def __str__(self):
        text = f"{self.code.name}: {self.message}"
        if self.reason:
            text += f" [{self.reason}]"
        for name, why in self.field_violations:
            text += f"\n  {name}: {why}"
        return text


def from_rpc_error(error: grpc.RpcError) -> RefereeError:
    """Decodes a grpc.RpcError (a failed call) into a RefereeError."""
    code = error.code() if hasattr(error, "code") else grpc.StatusCode.UNKNOWN
    message = error.details() if hasattr(error, "details") else str(error)
    out = RefereeError(code=code, message=message or "")
    trailers = error.trailing_metadata() if hasattr(
        error, "trailing_metadata") else None
    for key, value in trailers or ():
        if key != DETAILS_KEY:
            continue
        status = status_pb2.Status()
        try:
            status.ParseFromString(value)
        except Exception:  # a malformed trailer: keep code and message
            break
        for any_detail in status.details:
            info = error_details_pb2.ErrorInfo()
            bad = error_details_pb2.BadRequest()
            if any_detail.Unpack(info):
                out.reason = info.reason
                out.metadata = dict(info.metadata)
            elif any_detail.Unpack(bad):
                out.field_violations = [(v.field, v.description)
                                        for v in bad.field_violations]
    return out
