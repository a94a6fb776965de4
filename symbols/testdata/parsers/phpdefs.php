<?php
// phpdefs.php: the definitions PHP's own grammar sees in each file named on
// the command line, for symbols' TestPHPMatchesPHPParser. Structure and
// ranges come from PHP-Parser 4 (nikic/php-parser, whose grammar is PHP's
// own zend_language_parser.y; its autoload.php is the first argument),
// with the startFilePos and endFilePos attributes: byte offsets, the end
// inclusive. Each name's position is checked against PHP's own tokenizer
// (PhpToken::tokenize): a token must begin there with the name's text.
//
// Output, tab-separated: for each file "F path status" (ok, or the parse
// error), then one "D kind name_path start_line start_col end_line end_col
// name_line name_col" per definition, columns 1-based bytes, the end
// exclusive, with symedit's naming rules: a namespace (namespace X; and
// namespace X { }) named by its full name and ranging to the end of its
// last statement (as PHP-Parser moves the statements after namespace X;
// into it), class, interface, trait, enum, function, method (a class
// member's, an interface's, a trait's, an enum's and an anonymous class's;
// an anonymous class is not a definition, its methods nest under the
// definition around it); same-named siblings are numbered "[2]", ...
// "M path detail" reports a name the tokenizer does not see where
// PHP-Parser puts it.

use PhpParser\Node;

require $argv[1];

$lexer = new PhpParser\Lexer(['usedAttributes' => ['comments', 'startLine', 'endLine', 'startFilePos', 'endFilePos']]);
$parser = (new PhpParser\ParserFactory)->create(PhpParser\ParserFactory::ONLY_PHP7, $lexer);

// position returns the 1-based line and byte column of offset $off.
function position(array $starts, int $off): array {
    $lo = 0;
    $hi = count($starts) - 1;
    while ($lo < $hi) {
        $mid = intdiv($lo + $hi + 1, 2);
        if ($starts[$mid] <= $off) {
            $lo = $mid;
        } else {
            $hi = $mid - 1;
        }
    }
    return [$lo + 1, $off - $starts[$lo] + 1];
}

// lastEnd returns the end attribute of a namespace X; statement: its last
// statement's that is not a Nop (a Nop holds only comments), else its own.
// PHP-Parser extends the node to its last statement, a Nop included.
function lastEnd(Node\Stmt\Namespace_ $ns): int {
    for ($i = count($ns->stmts) - 1; $i >= 0; $i--) {
        if (!$ns->stmts[$i] instanceof Node\Stmt\Nop) {
            return $ns->stmts[$i]->getAttribute('endFilePos');
        }
    }
    return $ns->getAttribute('endFilePos');
}

function defsOf(string $path, $parser): array {
    $src = file_get_contents($path);
    $stmts = $parser->parse($src);
    $starts = [0];
    for ($i = strpos($src, "\n"); $i !== false; $i = strpos($src, "\n", $i + 1)) {
        $starts[] = $i + 1;
    }
    $tokens = [];
    foreach (PhpToken::tokenize($src) as $tok) {
        $tokens[$tok->pos] = $tok->text;
    }
    $out = [];
    $count = [];
    $walk = function ($node, ?array $parent) use (&$walk, &$out, &$count, $src, $starts, $tokens, $path) {
        if (is_array($node)) {
            foreach ($node as $n) {
                $walk($n, $parent);
            }
            return;
        }
        if (!$node instanceof Node) {
            return;
        }
        $kind = null;
        $nameNode = null;
        if ($node instanceof Node\Stmt\Namespace_ && $node->name !== null) {
            $kind = 'namespace';
            $nameNode = $node->name;
        } elseif ($node instanceof Node\Stmt\Class_ && $node->name !== null) {
            $kind = 'class';
        } elseif ($node instanceof Node\Stmt\Interface_) {
            $kind = 'interface';
        } elseif ($node instanceof Node\Stmt\Trait_) {
            $kind = 'trait';
        } elseif ($node instanceof Node\Stmt\Enum_) {
            $kind = 'enum';
        } elseif ($node instanceof Node\Stmt\Function_) {
            $kind = 'function';
        } elseif ($node instanceof Node\Stmt\ClassMethod) {
            $kind = 'method';
        }
        if ($kind !== null) {
            $nameNode ??= $node->name;
            $name = $nameNode->toString();
            $start = $node->getAttribute('startFilePos');
            $semicolon = $node instanceof Node\Stmt\Namespace_ && $node->getAttribute('kind') === Node\Stmt\Namespace_::KIND_SEMICOLON;
            $end = ($semicolon ? lastEnd($node) : $node->getAttribute('endFilePos')) + 1;
            $at = $nameNode->getAttribute('startFilePos');
            if (($tokens[$at] ?? null) !== $name && !($nameNode instanceof Node\Name && str_starts_with(substr($src, $at), $name))) {
                $out[] = "M\t$path\tname $name at byte $at: the tokenizer has " . json_encode($tokens[$at] ?? null);
            }
            $base = $parent === null ? $name : $parent[1] . '/' . $name;
            $count[$base] = ($count[$base] ?? 0) + 1;
            $np = $count[$base] > 1 ? "{$base}[{$count[$base]}]" : $base;
            [$sl, $sc] = position($starts, $start);
            [$el, $ec] = position($starts, $end);
            [$nl, $nc] = position($starts, $at);
            $out[] = implode("\t", ['D', $kind, $np, $sl, $sc, $el, $ec, $nl, $nc]);
            $parent = [$kind, $np];
        }
        foreach ($node->getSubNodeNames() as $sub) {
            $walk($node->$sub, $parent);
        }
    };
    $walk($stmts, null);
    return $out;
}

foreach (array_slice($argv, 2) as $path) {
    try {
        $lines = defsOf($path, $parser);
        echo "F\t$path\tok\n";
        foreach ($lines as $l) {
            echo $l, "\n";
        }
    } catch (Throwable $e) {
        echo "F\t$path\t", str_replace(["\t", "\n"], ' ', $e->getMessage()), "\n";
    }
}
