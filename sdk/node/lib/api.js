'use strict';
// The referee's API, loaded at run time from the repository's proto/ files
// (or $CASSINO_PROTO_DIR), so it always matches the referee beside it, and
// google.rpc's Status and error details from Debian's
// golang-github-gogo-googleapis-dev (or $CASSINO_GOOGLE_RPC_DIR).

const fs = require('fs');
const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const protobuf = require('protobufjs');

const PROTO_DIR = process.env.CASSINO_PROTO_DIR ||
  path.join(__dirname, '..', '..', '..', 'proto');
const GOOGLE_RPC_DIR = process.env.CASSINO_GOOGLE_RPC_DIR ||
  '/usr/share/gocode/src/github.com/gogo/googleapis';

function mustExist(file, hint) {
  if (!fs.existsSync(file)) {
    throw new Error(`cassino-sdk: ${file} is missing (${hint})`);
  }
  return file;
}

let api = null;
let rpc = null;

// The cassino.v1 package: RefereeService and the messages.
function v1() {
  if (api) return api;
  const file = mustExist(
    path.join(PROTO_DIR, 'cassino', 'v1', 'referee_service.proto'),
    'install from the repository, or set CASSINO_PROTO_DIR');
  const definition = protoLoader.loadSync(file, {
    includeDirs: [PROTO_DIR],
    keepCase: true,  // field names as in the .proto
    enums: String,   // enum values by name ('MOVE_KIND_CAPTURE')
    longs: Number,
    defaults: true,  // unset fields read as 0 / '' / []
    oneofs: true,    // response.event names the oneof case
  });
  api = grpc.loadPackageDefinition(definition).cassino.v1;
  return api;
}

// google.rpc.Status, ErrorInfo and BadRequest, for decoding error details.
function googleRpc() {
  if (rpc) return rpc;
  const root = new protobuf.Root();
  root.resolvePath = (origin, target) => {
    const inDir = path.join(GOOGLE_RPC_DIR, target);
    return fs.existsSync(inDir) ? inDir : protobuf.util.path.resolve(origin, target);
  };
  root.loadSync([
    mustExist(path.join(GOOGLE_RPC_DIR, 'google', 'rpc', 'status.proto'),
      'apt-get install golang-github-gogo-googleapis-dev'),
    path.join(GOOGLE_RPC_DIR, 'google', 'rpc', 'error_details.proto'),
  ], { keepCase: true });
  rpc = {
    Status: root.lookupType('google.rpc.Status'),
    ErrorInfo: root.lookupType('google.rpc.ErrorInfo'),
    BadRequest: root.lookupType('google.rpc.BadRequest'),
  };
  return rpc;
}

module.exports = { v1, googleRpc, PROTO_DIR };
