// The grammar of .mech files. Only words that start a declaration, `t`,
// `pi`, `if`, `or` and `not` are reserved; the clause words (mass, at, ...)
// are contextual and stay usable as names through the `name` rule, as are `contact` and `friction`,
// which came after models had used them as names (no other declaration
// starts with a name), and `table`.
// Operator chains are written as loops, not left recursion, so a sum of
// 100 000 terms yields a flat tree.
grammar Mech;

file        : (importDecl | defDecl | SEMI)* (modelDecl (importDecl | defDecl | SEMI)*)* EOF ;
importDecl  : IMPORT STRING (AS name)? ;
// Entry points for text that is not a whole file (command line, REPL).
standaloneExpr  : expr EOF ;
standaloneDecls : decl* EOF ;
standaloneAssignments : assignment (COMMA assignment)* COMMA? EOF ;
// --stop-when "th1 == 0, up": an event that stops the run.
standaloneStopCondition : expr EQ expr (COMMA (UP | DOWN))? EOF ;
assignment : initItem | TIME ASSIGN expr ;
modelDecl   : MODEL name LBRACE decl* RBRACE ;

decl
    : paramDecl | inputDecl | coordDecl | letDecl | defDecl | kineticDecl | potentialDecl
    | dissipationDecl | forceDecl | torqueDecl | generalizedDecl | particleDecl
    | bodyDecl | gravityDecl | springDecl | constraintDecl | initDecl
    | outputDecl | eventDecl | contactDecl | frictionDecl | tableDecl | drawDecl | forDecl | SEMI
    ;

paramDecl       : PARAM paramItem (COMMA paramItem)* ;
paramItem       : name (LBRACK (indexName IN)? expr RANGE expr RBRACK)? unit? ASSIGN expr ;
inputDecl       : INPUT inputItem (COMMA inputItem)* ;
inputItem       : name unit? ;
coordDecl       : COORD coordItem (COMMA coordItem)* ;
coordItem       : name (LBRACK expr RANGE expr RBRACK)? unit? ;
letDecl         : LET declName (LBRACK indexName IN expr RANGE expr RBRACK)? unit? ASSIGN expr ;
defDecl         : DEF name LPAREN (name (COMMA name)*)? RPAREN ASSIGN expr ;
kineticDecl     : KINETIC (declName ASSIGN)? expr ;
potentialDecl   : POTENTIAL (declName ASSIGN)? expr ;
dissipationDecl : DISSIPATION (declName ASSIGN)? expr ;
forceDecl       : FORCE expr AT expr ;
torqueDecl      : TORQUE expr ON expr ;
generalizedDecl : GENERALIZED expr ON expr ;
particleDecl    : PARTICLE declName MASS expr AT expr ;
bodyDecl        : BODY declName MASS expr AT expr (ANGLE expr | ROTATION expr) INERTIA expr (ABOUT expr)? ;
gravityDecl     : GRAVITY expr ;
springDecl      : SPRING expr BETWEEN expr AND expr (REST expr)? ;
constraintDecl  : CONSTRAINT (declName COLON)? expr EQ expr ;
initDecl        : INIT initItem (COMMA initItem)* ;
initItem        : name (LBRACK expr (COMMA expr)* RBRACK)? PRIME* ASSIGN expr ;
outputDecl      : OUTPUT declName ASSIGN expr ;
eventDecl       : EVENT declName COLON expr EQ expr eventClause* ;
eventClause     : STOP | DIRECTION (UP | DOWN) | THEN initItem (COMMA initItem)* ;
// contact floor: y >= 0 restitution e: a unilateral contact, gap lhs - rhs
// (>=) or rhs - lhs (<=) kept nonnegative by impacts and contact forces.
contactDecl     : CONTACT declName COLON expr (GE | LE) expr RESTITUTION expr ;
// friction belt: slip x' - vb normal m * g static mu_s kinetic mu_k: Coulomb
// friction on the slip velocity, sticking and slipping.
frictionDecl    : FRICTION declName COLON SLIP expr NORMAL expr STATIC expr (KINETIC expr)? ;
// table torque(w [rad/s]) [N*m] from "motor.csv" cubic extrapolate linear:
// a function of one argument from rows (x, y), read from a CSV file or
// written inline as a matrix ([[x1, y1], [x2, y2], ...]).
tableDecl       : TABLE name LPAREN name unit? RPAREN unit? (FROM STRING | ASSIGN expr) tableClause* ;
tableClause     : LINEAR | CUBIC | EXTRAPOLATE (HOLD | LINEAR) ;
forDecl         : FOR indexName IN expr RANGE expr LBRACE decl* RBRACE ;
drawDecl        : DRAW drawShape LPAREN expr (COMMA expr)* RPAREN ;
drawShape       : name | SPRING ;

declName  : name (LBRACK expr (COMMA expr)* RBRACK)? ;
indexName : name ;

// Expressions, loosest first.
expr      : term (addOp term)* ;
addOp     : PLUS | MINUS ;
term      : signedTerm (mulOp signedTerm)* ;
mulOp     : STAR | SLASH ;
signedTerm : (PLUS | MINUS)* power ;
power     : postfix (CARET exponent)* ;
exponent  : (PLUS | MINUS)* postfix ;
postfix   : primary postfixOp* ;
postfixOp
    : PRIME                          # primeOp
    | DOT name                       # componentOp
    | LBRACK indexItem (COMMA indexItem)* RBRACK  # indexOp
    ;
// The condition of if(cond, a, b): comparisons joined by `and`, `or` and
// `not` (loosest first), parenthesized where needed.
condition     : conjunction (OR conjunction)* ;
conjunction   : negation (AND negation)* ;
negation      : NOT negation | comparison | LPAREN condition RPAREN ;
comparison    : expr (LT | LE | GT | GE) expr ;
// An index, or `:` for a whole row or column of a matrix (W[:, 2]).
indexItem : expr | COLON ;
primary
    : NUMBER unit?                                                   # numberPrimary
    | TIME                                                           # timePrimary
    | PI                                                             # piPrimary
    | name LPAREN indexName IN expr RANGE expr COMMA expr RPAREN     # sumPrimary
    | IF LPAREN condition COMMA expr COMMA expr RPAREN               # ifPrimary
    | name (DOT name)? LPAREN (expr (COMMA expr)*)? RPAREN           # callPrimary
    | name                                                           # namePrimary
    | LPAREN expr RPAREN                                             # parenPrimary
    | LBRACK expr (COMMA expr)* RBRACK                               # vectorPrimary
    ;

// A unit in brackets: kg*m^2, m/s^2, 1/s, deg, (kg*m)/s^2.
unit       : LBRACK unitExpr RBRACK ;
unitExpr   : unitFactor ((STAR | SLASH) unitFactor)* ;
unitFactor : (name | NUMBER | LPAREN unitExpr RPAREN) (CARET (PLUS | MINUS)? NUMBER)? ;

name
    : ID | MASS | AT | ANGLE | ROTATION | INERTIA | ABOUT | AS | BETWEEN | AND | REST | ON | STOP
    | DIRECTION | UP | DOWN | IN | THEN | RESTITUTION | CONTACT | FRICTION | SLIP | NORMAL | STATIC
    | TABLE | FROM | LINEAR | CUBIC | EXTRAPOLATE | HOLD ;

MODEL       : 'model' ;
IMPORT      : 'import' ;
PARAM       : 'param' ;
INPUT       : 'input' ;
COORD       : 'coord' ;
LET         : 'let' ;
DEF         : 'def' ;
KINETIC     : 'kinetic' ;
POTENTIAL   : 'potential' ;
DISSIPATION : 'dissipation' ;
FORCE       : 'force' ;
TORQUE      : 'torque' ;
GENERALIZED : 'generalized' ;
PARTICLE    : 'particle' ;
BODY        : 'body' ;
GRAVITY     : 'gravity' ;
SPRING      : 'spring' ;
CONSTRAINT  : 'constraint' ;
INIT        : 'init' ;
OUTPUT      : 'output' ;
EVENT       : 'event' ;
CONTACT     : 'contact' ;
FOR         : 'for' ;
DRAW        : 'draw' ;
IF          : 'if' ;
OR          : 'or' ;
NOT         : 'not' ;
TIME        : 't' ;
PI          : 'pi' ;

MASS     : 'mass' ;
AT       : 'at' ;
ANGLE    : 'angle' ;
ROTATION : 'rotation' ;
INERTIA  : 'inertia' ;
ABOUT    : 'about' ;
AS       : 'as' ;
BETWEEN  : 'between' ;
AND      : 'and' ;
REST     : 'rest' ;
ON       : 'on' ;
STOP     : 'stop' ;
DIRECTION : 'direction' ;
UP       : 'up' ;
DOWN     : 'down' ;
IN       : 'in' ;
THEN     : 'then' ;
RESTITUTION : 'restitution' ;
FRICTION : 'friction' ;
SLIP     : 'slip' ;
NORMAL   : 'normal' ;
STATIC   : 'static' ;
TABLE    : 'table' ;
FROM     : 'from' ;
LINEAR   : 'linear' ;
CUBIC    : 'cubic' ;
EXTRAPOLATE : 'extrapolate' ;
HOLD     : 'hold' ;

NUMBER : DIGIT+ ('.' DIGIT+)? ([eE] [+-]? DIGIT+)? ;
ID     : ID_START ID_PART* ;
STRING : '"' ~["\r\n]* '"' ;

RANGE  : '..' ;
DOT    : '.' ;
EQ     : '==' ;
GE     : '>=' ;
LE     : '<=' ;
LT     : '<' ;
GT     : '>' ;
ASSIGN : '=' ;
PRIME  : '\'' ;
PLUS   : '+' ;
MINUS  : '-' ;
STAR   : '*' ;
SLASH  : '/' ;
CARET  : '^' ;
COMMA  : ',' ;
COLON  : ':' ;
SEMI   : ';' ;
LPAREN : '(' ;
RPAREN : ')' ;
LBRACK : '[' ;
RBRACK : ']' ;
LBRACE : '{' ;
RBRACE : '}' ;

COMMENT : '#' ~[\r\n]* -> channel(HIDDEN) ;
WS      : [ \t\r\n\f]+ -> skip ;
// Anything else becomes one token the parser rejects with a located error.
UNKNOWN : . ;

fragment DIGIT    : [0-9] ;
// Letters of the Latin, Greek, Cyrillic, Hebrew, Arabic, Indic and CJK
// scripts and the letter-like symbols (explicit ranges: ANTLR 4.7 merges
// Unicode property sets incorrectly). Subscript digits and combining marks may
// continue a name, so th₁ and ẋ are names.
fragment ID_START
    : [a-zA-Z_]
    | [\u00AA\u00B5\u00BA\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF]
    | [\u0370-\u0373\u0376\u0377\u037B-\u037D\u037F\u0386\u0388-\u03FF]
    | [\u0400-\u0481\u048A-\u052F\u0531-\u0556\u0561-\u0587\u05D0-\u05EA]
    | [\u0620-\u064A\u0904-\u0939\u1E00-\u1FFF\u2102-\u214F]
    | [\u3041-\u30FF\u4E00-\u9FFF\uAC00-\uD7A3]
    ;
fragment ID_PART
    : ID_START | [0-9] | [\u0300-\u036F\u2070-\u209C\u1AB0-\u1AFF\u20D0-\u20FF] ;
