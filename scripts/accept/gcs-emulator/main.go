// A Google Cloud Storage emulator for the gs:// team-index acceptance
// (scripts/accept/team-index-gcs.test.ts): fsouza/fake-gcs-server's in-memory
// store, as a library, behind the XML-API calls object_store (the storage
// layer under LanceDB 0.31) makes, which fake-gcs-server does not serve itself
// (a plain XML PUT gets "invalid uploadType"; PyPI's gcp-storage-emulator has
// no XML listing). Each call is carried out through fake-gcs-server's JSON
// routes with its generation precondition, so what a commit relies on (a
// manifest PUT with x-goog-if-generation-match: 0 fails with 412 when the
// object exists) is fake-gcs-server's guarantee, not this file's:
//
//	PUT    /{bucket}/{object}                      upload (x-goog-if-generation-match passed on)
//	PUT    /{bucket}/{object} + x-goog-copy-source copy (the same)
//	GET    /{bucket}?list-type=2                   listing (prefix, delimiter, start-after; one page)
//	POST   /{bucket}/{object}?uploads              multipart: start
//	PUT    /{bucket}/{object}?partNumber&uploadId  multipart: a part
//	POST   /{bucket}/{object}?uploadId             multipart: complete
//	DELETE /{bucket}/{object}?uploadId             multipart: abort
//	GET, HEAD, DELETE /{bucket}/{object}           fake-gcs-server's JSON routes
package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/fsouza/fake-gcs-server/fakestorage"
)

type upload struct {
	bucket, object string
	cond           string
	parts          map[int][]byte
}

type front struct {
	fake    http.Handler
	server  *fakestorage.Server
	mu      sync.Mutex
	uploads map[string]*upload
	nextID  atomic.Int64
}

func (s *front) inner(method, target string, body []byte, hdr http.Header) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, target, bytes.NewReader(body))
	for k, v := range hdr {
		req.Header[k] = v
	}
	rec := httptest.NewRecorder()
	s.fake.ServeHTTP(rec, req)
	return rec
}

func xmlError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/xml")
	w.WriteHeader(status)
	fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>%s</Code><Message>%s</Message></Error>`, code, msg)
}

// store writes data as bucket/object through fake-gcs-server's JSON media upload, with the caller's generation precondition.
func (s *front) store(w http.ResponseWriter, bucket, object string, data []byte, cond string, contentType string) {
	q := url.Values{"uploadType": {"media"}, "name": {object}}
	if cond != "" {
		q.Set("ifGenerationMatch", cond)
	}
	h := http.Header{}
	if contentType != "" {
		h.Set("Content-Type", contentType)
	}
	rec := s.inner(http.MethodPost, "/upload/storage/v1/b/"+url.PathEscape(bucket)+"/o?"+q.Encode(), data, h)
	if rec.Code != http.StatusOK {
		status := rec.Code
		code := "Error"
		if status == http.StatusPreconditionFailed {
			code = "PreconditionFailed"
		}
		xmlError(w, status, code, strings.TrimSpace(rec.Body.String()))
		return
	}
	var attrs struct {
		Etag       string `json:"etag"`
		Generation string `json:"generation"`
	}
	_ = json.Unmarshal(rec.Body.Bytes(), &attrs)
	w.Header().Set("ETag", fmt.Sprintf("%q", attrs.Etag))
	w.Header().Set("x-goog-generation", attrs.Generation)
	w.WriteHeader(http.StatusOK)
}

func (s *front) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.EscapedPath()
	for _, prefix := range []string{"/storage/v1/", "/upload/", "/download/", "/batch/", "/_internal/"} {
		if strings.HasPrefix(p, prefix) {
			s.fake.ServeHTTP(w, r)
			return
		}
	}
	segs := strings.SplitN(strings.TrimPrefix(p, "/"), "/", 2)
	bucket, err := url.PathUnescape(segs[0])
	if err != nil || bucket == "" {
		xmlError(w, http.StatusBadRequest, "InvalidURI", p)
		return
	}
	q := r.URL.Query()
	if len(segs) == 1 || segs[1] == "" {
		if r.Method == http.MethodGet {
			s.list(w, r, bucket)
			return
		}
		xmlError(w, http.StatusMethodNotAllowed, "MethodNotAllowed", r.Method)
		return
	}
	object, err := url.PathUnescape(segs[1])
	if err != nil {
		xmlError(w, http.StatusBadRequest, "InvalidURI", p)
		return
	}
	cond := r.Header.Get("x-goog-if-generation-match")
	objPath := "/b/" + url.PathEscape(bucket) + "/o/" + url.PathEscape(object)
	switch {
	case r.Method == http.MethodPost && q.Has("uploads"):
		id := fmt.Sprintf("upload-%d", s.nextID.Add(1))
		s.mu.Lock()
		s.uploads[id] = &upload{bucket: bucket, object: object, cond: cond, parts: map[int][]byte{}}
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/xml")
		fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><InitiateMultipartUploadResult><Bucket>%s</Bucket><Key>%s</Key><UploadId>%s</UploadId></InitiateMultipartUploadResult>`, bucket, object, id)
	case r.Method == http.MethodPut && q.Has("uploadId"):
		var n int
		fmt.Sscanf(q.Get("partNumber"), "%d", &n)
		data, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		u := s.uploads[q.Get("uploadId")]
		if u != nil {
			u.parts[n] = data
		}
		s.mu.Unlock()
		if u == nil {
			xmlError(w, http.StatusNotFound, "NoSuchUpload", q.Get("uploadId"))
			return
		}
		w.Header().Set("ETag", fmt.Sprintf(`"part-%d"`, n))
	case r.Method == http.MethodPost && q.Has("uploadId"):
		var body struct {
			Parts []struct {
				PartNumber int `xml:"PartNumber"`
			} `xml:"Part"`
		}
		raw, _ := io.ReadAll(r.Body)
		if err := xml.Unmarshal(raw, &body); err != nil {
			xmlError(w, http.StatusBadRequest, "MalformedXML", err.Error())
			return
		}
		s.mu.Lock()
		u := s.uploads[q.Get("uploadId")]
		delete(s.uploads, q.Get("uploadId"))
		s.mu.Unlock()
		if u == nil {
			xmlError(w, http.StatusNotFound, "NoSuchUpload", q.Get("uploadId"))
			return
		}
		var all bytes.Buffer
		for _, part := range body.Parts {
			all.Write(u.parts[part.PartNumber])
		}
		rec := httptest.NewRecorder()
		s.store(rec, bucket, object, all.Bytes(), u.cond, "")
		if rec.Code != http.StatusOK {
			w.WriteHeader(rec.Code)
			w.Write(rec.Body.Bytes())
			return
		}
		w.Header().Set("x-goog-generation", rec.Header().Get("x-goog-generation"))
		w.Header().Set("Content-Type", "application/xml")
		fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><CompleteMultipartUploadResult><Bucket>%s</Bucket><Key>%s</Key><ETag>%s</ETag></CompleteMultipartUploadResult>`, bucket, object, rec.Header().Get("ETag"))
	case r.Method == http.MethodDelete && q.Has("uploadId"):
		s.mu.Lock()
		delete(s.uploads, q.Get("uploadId"))
		s.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	case r.Method == http.MethodPut && r.Header.Get("x-goog-copy-source") != "":
		src, _ := url.PathUnescape(r.Header.Get("x-goog-copy-source"))
		ss := strings.SplitN(strings.TrimPrefix(src, "/"), "/", 2)
		if len(ss) != 2 {
			xmlError(w, http.StatusBadRequest, "InvalidArgument", src)
			return
		}
		obj, err := s.server.GetObject(ss[0], ss[1])
		if err != nil {
			xmlError(w, http.StatusNotFound, "NoSuchKey", src)
			return
		}
		s.store(w, bucket, object, obj.Content, cond, obj.ContentType)
	case r.Method == http.MethodPut:
		data, _ := io.ReadAll(r.Body)
		s.store(w, bucket, object, data, cond, r.Header.Get("Content-Type"))
	case r.Method == http.MethodGet || r.Method == http.MethodHead:
		target := "/download/storage/v1" + objPath
		if r.URL.RawQuery != "" {
			target += "?" + r.URL.RawQuery
		}
		req := r.Clone(r.Context())
		req.URL, _ = url.Parse(target)
		req.RequestURI = target
		s.fake.ServeHTTP(w, req)
	case r.Method == http.MethodDelete:
		req := r.Clone(r.Context())
		req.URL, _ = url.Parse("/storage/v1" + objPath)
		req.RequestURI = req.URL.RequestURI()
		s.fake.ServeHTTP(w, req)
	default:
		xmlError(w, http.StatusMethodNotAllowed, "MethodNotAllowed", r.Method)
	}
}

func main() {
	host := flag.String("host", "127.0.0.1", "address to listen on")
	port := flag.Int("port", 4443, "port")
	buckets := flag.String("buckets", "bucket", "comma-separated buckets to create")
	flag.Parse()
	addr := fmt.Sprintf("%s:%d", *host, *port)
	server, err := fakestorage.NewServerWithOptions(fakestorage.Options{
		NoListener:  true,
		Scheme:      "http",
		PublicHost:  addr,
		ExternalURL: "http://" + addr,
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, b := range strings.Split(*buckets, ",") {
		if b = strings.TrimSpace(b); b != "" {
			server.CreateBucketWithOpts(fakestorage.CreateBucketOpts{Name: b})
		}
	}
	s := &front{fake: server.HTTPHandler(), server: server, uploads: map[string]*upload{}}
	log.Printf("gcs emulator on http://%s, buckets %s", addr, *buckets)
	log.Fatal(http.ListenAndServe(addr, s))
}
