// The XML listing (ListObjectsV2, as GCS's XML API serves it) that object_store
// reads, built from fake-gcs-server's own listing: one page, sorted by name.
package main

import (
	"encoding/xml"
	"fmt"
	"net/http"
	"sort"

	"github.com/fsouza/fake-gcs-server/fakestorage"
)

type listResult struct {
	XMLName               xml.Name     `xml:"ListBucketResult"`
	Name                  string       `xml:"Name"`
	Prefix                string       `xml:"Prefix"`
	KeyCount              int          `xml:"KeyCount"`
	IsTruncated           bool         `xml:"IsTruncated"`
	NextContinuationToken string       `xml:"NextContinuationToken,omitempty"`
	Contents              []listEntry  `xml:"Contents"`
	CommonPrefixes        []listPrefix `xml:"CommonPrefixes"`
}

type listEntry struct {
	Key          string `xml:"Key"`
	Size         int64  `xml:"Size"`
	LastModified string `xml:"LastModified"`
	ETag         string `xml:"ETag"`
}

type listPrefix struct {
	Prefix string `xml:"Prefix"`
}

func (s *front) list(w http.ResponseWriter, r *http.Request, bucket string) {
	q := r.URL.Query()
	opts := fakestorage.ListOptions{Prefix: q.Get("prefix"), Delimiter: q.Get("delimiter")}
	objs, prefixes, err := s.server.ListObjectsWithOptions(bucket, opts)
	if err != nil {
		xmlError(w, http.StatusNotFound, "NoSuchBucket", err.Error())
		return
	}
	after := q.Get("start-after")
	sort.Slice(objs, func(i, j int) bool { return objs[i].Name < objs[j].Name })
	sort.Strings(prefixes)
	res := listResult{Name: bucket, Prefix: opts.Prefix}
	for _, o := range objs {
		if after != "" && o.Name <= after {
			continue
		}
		res.Contents = append(res.Contents, listEntry{o.Name, o.Size, o.Updated.UTC().Format("2006-01-02T15:04:05.000Z"), fmt.Sprintf("%q", o.Etag)})
	}
	for _, p := range prefixes {
		if after != "" && p <= after {
			continue
		}
		res.CommonPrefixes = append(res.CommonPrefixes, listPrefix{p})
	}
	res.KeyCount = len(res.Contents) + len(res.CommonPrefixes)
	out, _ := xml.Marshal(res)
	w.Header().Set("Content-Type", "application/xml")
	w.Write([]byte(xml.Header))
	w.Write(out)
}
