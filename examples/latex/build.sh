#!/bin/sh
# Writes the table and the tree that paper.tex inputs, then compiles it (pdflatex twice,
# for the references).
set -e
cd "$(dirname "$0")"
LASTBITE="${LASTBITE:-lastbite}"
"$LASTBITE" subtraction table --set 2,5,7 --max-heap 20 --latex \
  | sed 's/\\label{[^}]*}//; s/\\end{tabular}/\\end{tabular}\\label{tab:s257}/' > table3.tex
"$LASTBITE" efg draw ../efg/entry.efg --spe --values --tikz entry-tree.tikz > /dev/null
pdflatex -interaction=nonstopmode -halt-on-error -no-shell-escape paper.tex > /dev/null
pdflatex -interaction=nonstopmode -halt-on-error -no-shell-escape paper.tex > /dev/null
echo "examples/latex/paper.pdf"
