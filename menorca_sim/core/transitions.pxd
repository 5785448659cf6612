# transitions.py is compiled as it is (no C declarations on purpose): like invariants.py,
# its checks read the engine through its Python face, independently of its C fields,
# and run only with check=True. Checker stays a plain class (tests derive from it).
