package app

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/symedit/symedit/edit"
	"github.com/symedit/symedit/internal/jsontext"
)

// maxFrame is the largest JSON-RPC frame (one line) the MCP server reads:
// room for a write of a whole file of edit.MaxFileSize bytes escaped as a
// JSON string, plus the envelope (the SDK's 16 MiB limit made a
// legitimate large write kill the server). A longer frame is
// answered with an error and skipped; the server keeps serving.
const maxFrame = 2*edit.MaxFileSize + 1<<20

// frameTransport is the MCP server's stdio transport: newline-delimited
// JSON-RPC, as the SDK's IOTransport, but a frame that is not a valid
// JSON-RPC 2.0 message (invalid JSON, nesting deeper than encoding/json
// allows, an array, "jsonrpc": "1.0", a bad id) or that is over maxFrame
// bytes is answered with a JSON-RPC error response (parse error -32700 or
// invalid request -32600, with the frame's id when it can be read) and
// skipped, where the SDK's transport ends the session.
// Batches (arrays), which MCP dropped in its 2025-06-18 revision, are
// refused the same way.
type frameTransport struct {
	r     io.Reader
	w     io.Writer
	limit int // the most bytes in one frame
	// drain is the longest the end of the input waits for the answers
	// to requests already read (see frameConn.waitAnswered); 0: none.
	drain time.Duration
}

// Connect starts reading frames.
func (t *frameTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &frameConn{w: t.w, incoming: make(chan frameOrErr), closed: make(chan struct{}), drain: t.drain, pending: map[any]bool{}}
	go c.readLoop(t.r, t.limit)
	return c, nil
}

type frameOrErr struct {
	msg jsonrpc.Message
	err error
}

// frameConn is a connection of frameTransport.
type frameConn struct {
	writeMu   sync.Mutex
	w         io.Writer
	incoming  chan frameOrErr
	closeOnce sync.Once
	closed    chan struct{}
	drain     time.Duration
	pendingMu sync.Mutex
	pending   map[any]bool // the ids of requests read and not yet answered
}

// track notes a request that awaits an answer, and forgets one the client
// cancelled (notifications/cancelled: the SDK may not answer it).
func (c *frameConn) track(req *jsonrpc.Request) {
	c.pendingMu.Lock()
	defer c.pendingMu.Unlock()
	if req.IsCall() {
		c.pending[req.ID.Raw()] = true
		return
	}
	if req.Method == "notifications/cancelled" {
		var p struct {
			RequestID any `json:"requestId"`
		}
		if json.Unmarshal(req.Params, &p) == nil {
			if id, err := jsonrpc.MakeID(p.RequestID); err == nil {
				delete(c.pending, id.Raw())
			}
		}
	}
}

// waitAnswered waits, at most c.drain, until every request read so far
// has been answered, or the connection is closed: a client that writes its
// requests and then closes its end of the pipe (printf ... | symedit mcp)
// still gets every answer, where the SDK would end the session at the end
// of the input and drop the answers of calls still running.
func (c *frameConn) waitAnswered() {
	deadline := time.Now().Add(c.drain)
	for time.Now().Before(deadline) {
		c.pendingMu.Lock()
		n := len(c.pending)
		c.pendingMu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-c.closed:
			return
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// readLoop reads frames until the input ends, passing on the valid
// messages and answering the others. It returns when the input ends or the
// connection is closed (a read blocked on standard input then stays
// blocked until the process exits, as in the SDK's transport).
func (c *frameConn) readLoop(r io.Reader, limit int) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, over, err := readFrame(br, limit)
		var msg jsonrpc.Message
		if over > 0 || len(bytes.TrimSpace(line)) > 0 {
			var rerr *rpcError
			msg, rerr = decodeFrame(line, over, limit)
			if rerr != nil {
				if werr := c.writeRaw(rerr.response()); werr != nil {
					c.deliver(frameOrErr{err: werr})
					return
				}
				msg = nil
			}
		}
		if req, ok := msg.(*jsonrpc.Request); ok {
			c.track(req)
		}
		if msg != nil && !c.deliver(frameOrErr{msg: msg}) {
			return
		}
		if err != nil {
			c.waitAnswered()
			c.deliver(frameOrErr{err: err})
			return
		}
	}
}

// deliver hands a message or the final error to Read; false when the
// connection was closed.
func (c *frameConn) deliver(m frameOrErr) bool {
	select {
	case c.incoming <- m:
		return true
	case <-c.closed:
		return false
	}
}

// readFrame reads one line. It returns the line without its ending, or,
// for a line over limit bytes, its first 4 KiB at most and the line's
// size as over (the rest of the line is read and dropped, never held). err is io.EOF at the end
// of the input (after a last line without a line break, returned with it).
func readFrame(br *bufio.Reader, limit int) (line []byte, over int, err error) {
	size := 0
	for {
		chunk, err := br.ReadSlice('\n')
		size += len(chunk)
		if size <= limit {
			line = append(line, chunk...)
		} else if len(line) > 4096 || cap(line) > 4096 {
			line = append([]byte(nil), line[:min(len(line), 4096)]...) // the head, for its id
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if size > limit {
			return line, size, err
		}
		return bytes.TrimRight(line, "\r\n"), 0, err
	}
}

// rpcError is a JSON-RPC error response to a frame that was refused.
type rpcError struct {
	id      json.RawMessage // the frame's id, or nil for null
	code    int
	message string
}

// response encodes the error response, with "id": null when the frame's
// id is unknown (JSON-RPC 2.0, section 5).
func (e *rpcError) response() []byte {
	id := e.id
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{e.code, e.message}})
	return append(b, '\n')
}

// decodeFrame decodes one frame as the SDK does (over > 0: a frame of
// that many bytes, over limit, dropped), or returns the error response to
// send instead.
func decodeFrame(line []byte, over, limit int) (jsonrpc.Message, *rpcError) {
	if over > 0 {
		return nil, &rpcError{id: headID(line), code: jsonrpc.CodeInvalidRequest,
			message: fmt.Sprintf("the message is %d bytes, over the %d-byte limit of one frame; it was not read", over, limit)}
	}
	line = bytes.TrimSpace(line)
	if !json.Valid(line) {
		var err error
		var v any
		if err = json.Unmarshal(line, &v); err == nil {
			err = errors.New("invalid JSON")
		}
		return nil, &rpcError{code: jsonrpc.CodeParseError, message: "parse error: the message is not valid JSON: " + err.Error()}
	}
	if err := jsontext.Check(line); err != nil {
		// encoding/json would read it with U+FFFD in place of what was
		// sent, and an edit would write that.
		return nil, &rpcError{id: headID(line), code: jsonrpc.CodeParseError, message: "parse error: the message does not decode as sent: " + err.Error()}
	}
	if line[0] != '{' {
		return nil, &rpcError{code: jsonrpc.CodeInvalidRequest,
			message: "invalid request: a JSON-RPC 2.0 message is a JSON object (batches are not supported)"}
	}
	// A frame with an id, no method and neither result nor error is no
	// message at all: the SDK would take it for a response to nothing and
	// drop it, leaving the client waiting. JSON-RPC 2.0 answers it with
	// Invalid Request.
	var shape struct {
		ID     json.RawMessage `json:"id"`
		Method json.RawMessage `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if json.Unmarshal(line, &shape) == nil && shape.ID != nil && shape.Method == nil && shape.Result == nil && shape.Error == nil {
		return nil, &rpcError{id: frameID(line), code: jsonrpc.CodeInvalidRequest,
			message: "invalid request: the message has an id but no method (a request) and neither result nor error (a response)"}
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, &rpcError{id: frameID(line), code: jsonrpc.CodeInvalidRequest, message: "invalid request: " + err.Error()}
	}
	return msg, nil
}

// headID returns the "id" of a frame from its first bytes, when it comes
// before the first member that does not fit in them (clients write
// "jsonrpc", "id" and "method" before "params"), else nil.
func headID(head []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(head))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil
		}
		if key == "id" {
			return frameID(append(append([]byte(`{"id":`), v...), '}'))
		}
	}
	return nil
}

// frameID returns the "id" of an object frame when it is a valid JSON-RPC
// id (a string, a number or null), else nil.
func frameID(line []byte) json.RawMessage {
	var f struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &f) != nil || len(f.ID) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(f.ID, &v) != nil {
		return nil
	}
	switch v.(type) {
	case string, float64:
		return f.ID
	}
	return nil
}

// Read returns the next valid message.
func (c *frameConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	case m := <-c.incoming:
		return m.msg, m.err
	}
}

// Write sends one message as one line.
func (c *frameConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a JSON-RPC message: %w", err)
	}
	err = c.writeRaw(append(data, '\n'))
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.pendingMu.Lock()
		delete(c.pending, resp.ID.Raw())
		c.pendingMu.Unlock()
	}
	return err
}

// writeRaw writes one whole line; lines never interleave.
func (c *frameConn) writeRaw(line []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.w.Write(line)
	return err
}

// Close stops delivering messages.
func (c *frameConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

// SessionID is empty: stdio has one session.
func (c *frameConn) SessionID() string { return "" }
