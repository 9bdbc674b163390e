"""HumanEval-shaped problems written for the tests: a right solution, a mutated one (an off-by-one, a
flipped comparison, a missed case…) that must fail, ``check(candidate)``, and the task as a prompt
(what the judge decides against when a case has no tests)."""

PROBLEMS = [
    {
        "entry_point": "sum_to_n",
        "prompt": ('Write a Python function sum_to_n(n) that returns the sum of the integers from 1 to n (0 when n '
                   'is 0).'),
        "right": "def sum_to_n(n):\n    return sum(range(1, n + 1))\n",
        "mutated": "def sum_to_n(n):\n    return sum(range(1, n))\n",
        "tests": "def check(candidate):\n    assert candidate(1) == 1\n    assert candidate(5) == 15\n"
                 "    assert candidate(10) == 55\n    assert candidate(0) == 0\n",
    },
    {
        "entry_point": "is_palindrome",
        "prompt": ('Write a Python function is_palindrome(text) that returns True when the string reads the same '
                   'backwards; the empty string is a palindrome.'),
        "right": "def is_palindrome(text):\n    return text == text[::-1]\n",
        "mutated": "def is_palindrome(text):\n    return len(text) > 0 and text == text[::-1]\n",
        "tests": "def check(candidate):\n    assert candidate('') is True\n    assert candidate('aba') is True\n"
                 "    assert candidate('abca') is False\n    assert candidate('ab') is False\n",
    },
    {
        "entry_point": "fizzbuzz",
        "prompt": ("Write a Python function fizzbuzz(n) returning 'FizzBuzz' for multiples of 15, 'Fizz' for other "
                   "multiples of 3, 'Buzz' for other multiples of 5, and str(n) otherwise."),
        "right": "def fizzbuzz(n):\n    if n % 15 == 0:\n        return 'FizzBuzz'\n    if n % 3 == 0:\n"
                 "        return 'Fizz'\n    if n % 5 == 0:\n        return 'Buzz'\n    return str(n)\n",
        "mutated": "def fizzbuzz(n):\n    if n % 3 == 0:\n        return 'Fizz'\n    if n % 5 == 0:\n"
                   "        return 'Buzz'\n    if n % 15 == 0:\n        return 'FizzBuzz'\n    return str(n)\n",
        "tests": "def check(candidate):\n    assert candidate(3) == 'Fizz'\n    assert candidate(10) == 'Buzz'\n"
                 "    assert candidate(30) == 'FizzBuzz'\n    assert candidate(7) == '7'\n",
    },
    {
        "entry_point": "below_zero",
        "prompt": ('Write a Python function below_zero(operations) that, given deposit and withdrawal amounts '
                   'applied to a balance starting at 0, returns True as soon as the balance falls below zero, else '
                   'False.'),
        "right": "from typing import List\n\ndef below_zero(operations: List[int]) -> bool:\n    balance = 0\n"
                 "    for op in operations:\n        balance += op\n        if balance < 0:\n            return True\n"
                 "    return False\n",
        "mutated": "from typing import List\n\ndef below_zero(operations: List[int]) -> bool:\n    balance = 0\n"
                   "    for op in operations:\n        balance += op\n        if balance <= 0:\n"
                   "            return True\n    return False\n",
        "tests": "def check(candidate):\n    assert candidate([]) == False\n"
                 "    assert candidate([1, 2, -3, 1]) == False\n    assert candidate([1, 2, -4, 5]) == True\n"
                 "    assert candidate([1, -1, 2]) == False\n",
    },
    {
        "entry_point": "max_element",
        "prompt": ('Write a Python function max_element(items) that returns the largest element of a non-empty list'
                   ' of numbers (which may all be negative).'),
        "right": "def max_element(items):\n    best = items[0]\n    for x in items:\n        if x > best:\n"
                 "            best = x\n    return best\n",
        "mutated": "def max_element(items):\n    best = 0\n    for x in items:\n        if x > best:\n"
                   "            best = x\n    return best\n",
        "tests": "def check(candidate):\n    assert candidate([1, 2, 3]) == 3\n"
                 "    assert candidate([-5, -2, -9]) == -2\n    assert candidate([7]) == 7\n",
    },
    {
        "entry_point": "count_vowels",
        "prompt": ('Write a Python function count_vowels(s) that returns the number of vowels (a, e, i, o, u, upper'
                   ' or lower case) in s.'),
        "right": "def count_vowels(s):\n    return sum(c in 'aeiouAEIOU' for c in s)\n",
        "mutated": "def count_vowels(s):\n    return sum(c in 'aeiou' for c in s)\n",
        "tests": "def check(candidate):\n    assert candidate('hello') == 2\n    assert candidate('') == 0\n"
                 "    assert candidate('AEIOU') == 5\n    assert candidate('xyz') == 0\n",
    },
    {
        "entry_point": "fib",
        "prompt": ('Write a Python function fib(n) returning the n-th Fibonacci number, with fib(0) == 0 and fib(1)'
                   ' == 1.'),
        "right": "def fib(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n",
        "mutated": "def fib(n):\n    a, b = 1, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n",
        "tests": "def check(candidate):\n    assert candidate(0) == 0\n    assert candidate(1) == 1\n"
                 "    assert candidate(10) == 55\n    assert candidate(12) == 144\n",
    },
    {
        "entry_point": "unique_sorted",
        "prompt": 'Write a Python function unique_sorted(items) that returns the sorted unique elements of a list.',
        "right": "def unique_sorted(items):\n    return sorted(set(items))\n",
        "mutated": "def unique_sorted(items):\n    return sorted(items)\n",
        "tests": "def check(candidate):\n    assert candidate([3, 1, 2]) == [1, 2, 3]\n"
                 "    assert candidate([5, 3, 5, 2, 3, 3, 9, 0, 123]) == [0, 2, 3, 5, 9, 123]\n"
                 "    assert candidate([]) == []\n",
    },
    {
        "entry_point": "truncate_number",
        "prompt": ('Write a Python function truncate_number(number) that, given a positive float, returns its '
                   'decimal part (the number minus its integer part).'),
        "right": "def truncate_number(number: float) -> float:\n    return number % 1.0\n",
        "mutated": "def truncate_number(number: float) -> float:\n    return number // 1.0\n",
        "tests": "def check(candidate):\n    assert candidate(3.5) == 0.5\n"
                 "    assert abs(candidate(1.33) - 0.33) < 1e-6\n    assert abs(candidate(123.456) - 0.456) < 1e-6\n",
    },
    {
        "entry_point": "words_in_sentence",
        "prompt": ('Write a Python function words_in_sentence(sentence) that returns, space-separated and in order,'
                   ' the words of the sentence whose lengths are prime numbers.'),
        "right": "def words_in_sentence(sentence):\n    def prime(n):\n        return n > 1 and all(n % d for d in "
                 "range(2, int(n ** 0.5) + 1))\n    return ' '.join(w for w in sentence.split() if prime(len(w)))\n",
        "mutated": "def words_in_sentence(sentence):\n    def prime(n):\n        return all(n % d for d in "
                   "range(2, n))\n    return ' '.join(w for w in sentence.split() if prime(len(w)))\n",
        "tests": "def check(candidate):\n    assert candidate('This is a test') == 'is'\n"
                 "    assert candidate('lets go for swimming') == 'go for'\n    assert candidate('here') == ''\n"
                 "    assert candidate('a b c') == ''\n",
    },
    {
        "entry_point": "parse_nested_parens",
        "prompt": ('Write a Python function parse_nested_parens(s) that, for each space-separated group of nested '
                   'parentheses in s, returns the deepest level of nesting, as a list.'),
        "right": "def parse_nested_parens(s):\n    out = []\n    for group in s.split():\n        depth = best = 0\n"
                 "        for c in group:\n            depth += 1 if c == '(' else -1\n"
                 "            best = max(best, depth)\n"
                 "        out.append(best)\n    return out\n",
        "mutated": "def parse_nested_parens(s):\n    return [g.count('(') for g in s.split()]\n",
        "tests": "def check(candidate):\n    inputs = ['(()()) ((())) () ((())()())', '() (()) ((())) (((())))']\n"
                 "    expected = [[2, 3, 1, 3], [1, 2, 3, 4]]\n"
                 "    for given, want in zip(inputs, expected):\n        assert candidate(given) == want\n"
                 "    assert candidate('(()(())((())))') == [4]\n",
    },
    {
        "entry_point": "slow_square",  # the mutated one never returns: a timeout is a failure
        "prompt": 'Write a Python function slow_square(x) that returns x squared.',
        "right": "def slow_square(x):\n    return x * x\n",
        "mutated": "def slow_square(x):\n    while True:\n        pass\n",
        "tests": "def check(candidate):\n    assert candidate(3) == 9\n    assert candidate(-2) == 4\n",
    },
]
