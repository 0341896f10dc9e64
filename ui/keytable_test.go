package ui

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
)

// testKeys is the top level's default key table, read from keymap.go itself (package main cannot
// be imported), so the tests run on the keys a trader gets and no copy of the table can drift.
var testKeys = readDefaultKeys("../keymap.go")

// readDefaultKeys parses the defaultKeys map literal of the Go file at path.
func readDefaultKeys(path string) map[string][]string {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		panic(err)
	}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			continue
		}
		for _, sp := range gd.Specs {
			vs := sp.(*ast.ValueSpec)
			if len(vs.Names) == 1 && vs.Names[0].Name == "defaultKeys" && len(vs.Values) == 1 {
				return keyTable(vs.Values[0])
			}
		}
	}
	panic(path + " declares no defaultKeys")
}

// keyTable reads a map[string][]string literal of string constants.
func keyTable(e ast.Expr) map[string][]string {
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		panic(fmt.Sprintf("defaultKeys is a %T, not a map literal", e))
	}
	out := map[string][]string{}
	for _, el := range lit.Elts {
		kv := el.(*ast.KeyValueExpr)
		name := stringLit(kv.Key)
		for _, k := range kv.Value.(*ast.CompositeLit).Elts {
			out[name] = append(out[name], stringLit(k))
		}
	}
	return out
}

func stringLit(e ast.Expr) string {
	b, ok := e.(*ast.BasicLit)
	if !ok || b.Kind != token.STRING {
		panic(fmt.Sprintf("defaultKeys holds a %T where a string literal belongs", e))
	}
	s, err := strconv.Unquote(b.Value)
	if err != nil {
		panic(err)
	}
	return s
}
