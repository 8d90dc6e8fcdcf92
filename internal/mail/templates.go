package mail

import (
	"bytes"
	"embed"
	"fmt"
	htmltemplate "html/template"
	"strings"
	texttemplate "text/template"
)

// Each message kind NAME is two files in templates/: NAME.txt, whose first
// line is "Subject: …" and the rest the plain-text body, and NAME.html,
// the HTML body placed inside layout.html. Both see the same data.
//
//go:embed templates/*.txt templates/*.html
var templateFiles embed.FS

var (
	textTemplates = texttemplate.Must(texttemplate.New("").ParseFS(templateFiles, "templates/*.txt"))
	htmlTemplates = htmltemplate.Must(htmltemplate.New("").ParseFS(templateFiles, "templates/*.html"))
)

// Data is what every template sees: the product's base URL (links are built
// on it) and the message's own fields.
type Data struct {
	BaseURL string
	Fields  map[string]any
}

// Render builds the message kind name for to from its two templates.
func Render(to, name string, data Data) (Message, error) {
	var text bytes.Buffer
	if err := textTemplates.ExecuteTemplate(&text, name+".txt", data); err != nil {
		return Message{}, fmt.Errorf("mail: unable to render %s.txt: %w", name, err)
	}
	subjectLine, body, _ := strings.Cut(text.String(), "\n")
	subject, ok := strings.CutPrefix(subjectLine, "Subject: ")
	if !ok {
		return Message{}, fmt.Errorf("mail: %s.txt must start with a Subject: line", name)
	}
	var inner bytes.Buffer
	if err := htmlTemplates.ExecuteTemplate(&inner, name+".html", data); err != nil {
		return Message{}, fmt.Errorf("mail: unable to render %s.html: %w", name, err)
	}
	var page bytes.Buffer
	err := htmlTemplates.ExecuteTemplate(&page, "layout.html", struct {
		Data
		Subject string
		Body    htmltemplate.HTML
	}{data, subject, htmltemplate.HTML(inner.String())}) // inner is already escaped by html/template
	if err != nil {
		return Message{}, fmt.Errorf("mail: unable to render the layout: %w", err)
	}
	return Message{To: to, Subject: strings.TrimSpace(subject), Text: strings.TrimLeft(body, "\n"), HTML: page.String()}, nil
}
