'use strict';
// Readable errors: the referee's google.rpc.Status details decoded (an
// ErrorInfo with a stable `reason`, and for bad requests a BadRequest that
// names each wrong field; docs/referee.md, *Error details*).

const grpc = require('@grpc/grpc-js');
const { googleRpc } = require('./api');

const CODE_NAMES = Object.fromEntries(
  Object.entries(grpc.status).map(([name, code]) => [code, name]));

class RefereeError extends Error {
  constructor(code, message, reason = '', metadata = {}, fieldViolations = []) {
    let text = `${CODE_NAMES[code] || code}: ${message}`;
    if (reason) text += ` [${reason}]`;
    for (const v of fieldViolations) text += `\n  ${v.field}: ${v.description}`;
    super(text);
    this.name = 'RefereeError';
    this.code = code;              // a grpc.status number
    this.codeName = CODE_NAMES[code] || String(code);
    this.details = message;        // the status message
    this.reason = reason;          // ErrorInfo.reason, e.g. 'ILLEGAL_MOVE'
    this.metadata = metadata;      // ErrorInfo.metadata
    this.fieldViolations = fieldViolations;  // [{field, description}]
  }
}

// A grpc-js ServiceError (a failed call) as a RefereeError.
function fromServiceError(err) {
  const out = new RefereeError(err.code ?? grpc.status.UNKNOWN,
    err.details ?? err.message ?? String(err));
  const bins = err.metadata ? err.metadata.get('grpc-status-details-bin') : [];
  if (!bins || bins.length === 0) return out;
  try {
    const { Status, ErrorInfo, BadRequest } = googleRpc();
    const status = Status.decode(bins[0]);
    for (const any of status.details || []) {
      if (any.type_url.endsWith('/google.rpc.ErrorInfo')) {
        const info = ErrorInfo.decode(any.value);
        out.reason = info.reason;
        out.metadata = { ...info.metadata };
      } else if (any.type_url.endsWith('/google.rpc.BadRequest')) {
        out.fieldViolations = BadRequest.decode(any.value).field_violations
          .map((v) => ({ field: v.field, description: v.description }));
      }
    }
  } catch (e) {
    return out;  // malformed details: keep code and message
  }
  return new RefereeError(out.code, out.details, out.reason, out.metadata,
    out.fieldViolations);
}

module.exports = { RefereeError, fromServiceError, CODE_NAMES };
