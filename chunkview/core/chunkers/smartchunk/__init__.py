"""Port of smartchunk from its README (corpus/smartchunk-readme.txt; there is no
reference code to run): ``reference`` follows the README step by step, ``fast``,
``byte_offsets`` and ``columns`` are its fast paths, ``explain`` words its reasons and
``entry`` plugs it in."""
